import type { Logger } from "pino";
import type { BroadcastSubmitter } from "../broadcasts/submit-broadcast.js";
import type { DraftStore } from "../broadcasts/draft.js";
import type { OrderPlacer } from "../orders/place-order.js";
import type { QuoteStore } from "../orders/quote-store.js";
import type { ServiceError } from "../../platform/service/errors.js";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { keyTagOf, PENDING_NAMESPACE, PENDING_VERSION, pendingSchema, type PendingConfirmation, type PendingConfirmations } from "./pending-confirmations.js";

/**
 * Resolves, at start-up, every confirmation whose outcome was never recorded
 * (a crash, a kill, a timeout): an order is replayed with its stored
 * Idempotency-Key (the service answers with the orders it made, or makes
 * them now: charged once either way); a broadcast is looked up in the
 * history by its txId, else sent again (deduplicated by txId, so an attempt
 * the service saw answers duplicate_tx instead of charging). What was placed
 * is tracked, and the tracker announces it; what certainly was not is told
 * to the chat. A service that cannot answer now is asked again later.
 *
 * The journal's entries are timed jobs (`platform/jobs/`, the
 * `confirmation` kind over the journal's own records): one left by an earlier
 * run is due at start, one written since is due once it is `staleAfterMs` old
 * (a Confirm still checking its outcome settles it first), and one the service
 * cannot answer for yet is tried again with backoff.
 */

export type RecoveryOutcome =
  | { kind: "order"; chatId: number; quoteId: string; locale?: string; result: "refused"; error: ServiceError; retryable: boolean }
  /** `cardMessageId`: the message that says the outcome is being checked; it becomes the outcome. */
  | {
      kind: "broadcast";
      chatId: number;
      draftId: string;
      txId: string;
      locale?: string;
      cardMessageId?: number;
      result: "refused";
      error: ServiceError;
      retryable: boolean;
    }
  /** The transaction expired before its fate could be learned; only a webhook or the chain can tell now. */
  | { kind: "broadcast"; chatId: number; draftId: string; locale?: string; cardMessageId?: number; result: "expired_unknown"; txId: string };

export interface ConfirmationRecoveryDeps {
  /** The journal's store: its entries are read (and armed) as the recovery's jobs. */
  store: StoreBackend;
  /** Runs the journal's entries as the `confirmation` kind of timed job. */
  jobs: JobsEngine;
  pending: PendingConfirmations;
  quotes: Pick<QuoteStore, "get">;
  drafts: Pick<DraftStore, "get">;
  placer: Pick<OrderPlacer, "place">;
  submitter: Pick<BroadcastSubmitter, "submit">;
  getApiKey: (chatId: number) => Promise<string | undefined>;
  /** Tells the chat about a confirmation that certainly did not go through. */
  onOutcome: (outcome: RecoveryOutcome) => Promise<void>;
  logger: Logger;
  /** First delay before asking an unavailable service again; doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * While running, entries written since are resolved once `staleAfterMs` old,
   * seen by a read of the journal every `sweepIntervalMs`: a store fault or an
   * unknown outcome in this process must not wait for the next restart.
   * Defaults: 60 s and 60 s.
   */
  sweepIntervalMs?: number;
  staleAfterMs?: number;
  now?: () => number;
}

export interface ConfirmationRecovery {
  /**
   * Starts resolving what is pending, in the background (a service that is
   * down must not hold the bot's start); what cannot be resolved yet is retried.
   */
  start(): Promise<void>;
  /** Resolves once what is due is resolved or waits for its retry (tests, shutdown). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

type Resolution = "done" | "later";

export function createConfirmationRecovery(deps: ConfirmationRecoveryDeps): ConfirmationRecovery {
  const logger = deps.logger.child({ component: "confirmation-recovery" });
  const baseDelay = deps.retryDelayMs ?? 5_000;
  const maxDelay = deps.maxRetryDelayMs ?? 5 * 60_000;
  const sweepIntervalMs = deps.sweepIntervalMs ?? 60_000;
  const staleAfterMs = deps.staleAfterMs ?? 60_000;
  const now = deps.now ?? Date.now;
  /** Entries written before this start are due at once: whatever an earlier run left is stale by definition. */
  let startedAtMs = Number.POSITIVE_INFINITY;
  const localeOf = (entry: PendingConfirmation) => (entry.locale === undefined ? {} : { locale: entry.locale });

  async function resolveOrder(entry: PendingConfirmation, apiKey: string): Promise<Resolution> {
    const quote = await deps.quotes.get(entry.id);
    // Never sent, refused for certain, or cancelled: nothing can have been charged.
    if (!quote || quote.state === "open" || quote.state === "cancelled") {
      await deps.pending.remove("order", entry.id);
      return "done";
    }
    // `resolving`: a quote settled meanwhile (by the Confirm that is still checking it) is not sent again.
    const result = await deps.placer.place({ chatId: entry.chatId, quoteId: entry.id, apiKey, resolving: true, ...localeOf(entry) });
    if (result.status === "placed") {
      logger.info({ quoteId: entry.id, orderIds: result.orders.map((o) => o.orderId), replayed: result.replayed }, "pending order resolved: placed");
      return "done";
    }
    if (result.status === "failed" && result.quote.state === "unknown") return "later";
    if (result.status === "failed") {
      logger.info({ quoteId: entry.id, code: result.error.code }, "pending order resolved: not placed");
      await deps.onOutcome({
        kind: "order",
        chatId: entry.chatId,
        quoteId: entry.id,
        ...localeOf(entry),
        result: "refused",
        error: result.error,
        retryable: result.retryable,
      });
    }
    await deps.pending.remove("order", entry.id);
    return "done";
  }

  async function resolveBroadcast(entry: PendingConfirmation, apiKey: string): Promise<Resolution> {
    const draft = await deps.drafts.get(entry.id);
    if (!draft || draft.state === "open" || draft.state === "cancelled") {
      await deps.pending.remove("broadcast", entry.id);
      return "done";
    }
    // `resolving`: a draft settled meanwhile (by the Confirm that is still checking it) is not sent again.
    const result = await deps.submitter.submit({ chatId: entry.chatId, draftId: entry.id, apiKey, resolving: true, ...localeOf(entry) });
    const card = draft.messageId === undefined ? {} : { cardMessageId: draft.messageId };
    switch (result.status) {
      case "submitted":
      case "duplicate":
        logger.info({ draftId: entry.id, status: result.status }, "pending broadcast resolved");
        return "done";
      case "failed":
        if (result.draft.state === "unknown") return "later";
        await deps.onOutcome({
          kind: "broadcast",
          chatId: entry.chatId,
          draftId: entry.id,
          txId: result.draft.summary.txId,
          ...localeOf(entry),
          ...card,
          result: "refused",
          error: result.error,
          retryable: result.retryable,
        });
        break;
      case "expired":
        await deps.onOutcome({
          kind: "broadcast",
          chatId: entry.chatId,
          draftId: entry.id,
          ...localeOf(entry),
          ...card,
          result: "expired_unknown",
          txId: result.draft.summary.txId,
        });
        break;
      default:
        break;
    }
    await deps.pending.remove("broadcast", entry.id);
    return "done";
  }

  async function resolve(entry: PendingConfirmation): Promise<Resolution> {
    const apiKey = await deps.getApiKey(entry.chatId);
    if (apiKey === undefined) {
      // Unlinked since: the account's records are no longer the chat's to read.
      logger.warn({ chatId: entry.chatId, kind: entry.kind, id: entry.id }, "pending confirmation dropped: the chat has no key any more");
      await deps.pending.remove(entry.kind, entry.id);
      return "done";
    }
    if (entry.keyTag !== undefined && entry.keyTag !== keyTagOf(apiKey)) {
      // Re-linked to another account: replaying there would be a new purchase, not this one.
      logger.warn({ chatId: entry.chatId, kind: entry.kind, id: entry.id }, "pending confirmation dropped: the chat is linked to another key now");
      await deps.pending.remove(entry.kind, entry.id);
      return "done";
    }
    return entry.kind === "order" ? resolveOrder(entry, apiKey) : resolveBroadcast(entry, apiKey);
  }

  const jobs = deps.jobs.define<PendingConfirmation>({
    kind: "confirmation",
    namespace: PENDING_NAMESPACE,
    schema: pendingSchema,
    version: PENDING_VERSION,
    logger,
    now,
    dueAtMs: (entry) => (entry.sinceMs <= startedAtMs ? 0 : entry.sinceMs + staleAfterMs),
    async run(entry) {
      if ((await resolve(entry)) === "later") throw new Error("the service could not answer yet");
    },
    // Resolving removes the entry itself (here, or in the placer or the submitter), and only what it resolved:
    // a Confirm pressed again meanwhile writes a new entry under the same key, which must stay.
    handlerKeepsRecords: true,
    // The placer and the submitter write the journal's entries, not `schedule`: every engine reads it again.
    recordsWrittenElsewhere: true,
    rescanIntervalMs: sweepIntervalMs,
    retryDelayMs: baseDelay,
    maxRetryDelayMs: maxDelay,
  });

  return {
    async start() {
      startedAtMs = now();
      await jobs.start();
    },
    settled: () => jobs.idle(),
    stop: () => jobs.stop(),
  };
}
