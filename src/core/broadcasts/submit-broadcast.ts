import type { Logger } from "pino";
import { createKeyedMutex } from "../store/keyed-mutex.js";
import { ServiceError } from "../service/errors.js";
import type { ServiceClient } from "../service/client.js";
import { keyTagOf, type PendingConfirmations } from "../confirmations/pending-confirmations.js";
import type { HistoryEntry, OrderHistory } from "../orders/order-history.js";
import type { Tracker } from "../tracking/tracker.js";
import type { SpendGate, SpendRefusal } from "../limits/spend-guard.js";
import { EXPIRED_BELOW_MS } from "../tron/index.js";
import type { BroadcastDraft, DraftStore } from "./draft.js";

/**
 * Submits a confirmed draft once. Broadcasts are deduplicated by txId on the
 * service, so a repeated submit cannot charge twice; what matters here is to
 * show the right thing: the broadcast already made, not a scary 409.
 */

export type SubmitResult =
  | { status: "submitted"; draft: BroadcastDraft; broadcastId: string; initialStatus: string; alreadySubmitted: boolean }
  | { status: "not_found" }
  /** The chat's limits refuse it (frozen, or a cap its fee would cross): nothing was sent. */
  | { status: "over_limit"; draft: BroadcastDraft; refusal: SpendRefusal; feeSun: bigint }
  /** Its fee is above the chat's confirm threshold: the same draft again with `confirmedAgain` sends it. */
  | { status: "needs_second_tap"; draft: BroadcastDraft; feeSun: bigint }
  | { status: "cancelled"; draft: BroadcastDraft }
  | { status: "expired"; draft: BroadcastDraft }
  | { status: "duplicate"; draft: BroadcastDraft; existing?: HistoryEntry | undefined }
  | { status: "failed"; draft: BroadcastDraft; error: ServiceError; retryable: boolean };

export interface BroadcastSubmitterDeps {
  service: Pick<ServiceClient, "createBroadcast" | "getBroadcast">;
  drafts: DraftStore;
  history: OrderHistory;
  /** Tracking starts in the same step that records the service's acceptance. */
  tracker: Pick<Tracker, "track">;
  /** Submissions in flight: what a crash leaves here is resolved at start-up. */
  pending: PendingConfirmations;
  now: () => number;
  logger: Logger;
  /** The chat's spend limits, asked before a draft's first send; without it nothing is limited. */
  spend?: SpendGate;
}

export interface SubmitInput {
  chatId: number;
  draftId: string;
  apiKey: string;
  /** The chat's language, for the broadcast's notifications. */
  locale?: string;
  /** The caller draws the first card and reports it to the tracker; without it the tracker announces the broadcast itself. */
  drawsCard?: boolean;
  /** The message that becomes the card (the button's message); defaults to the draft's summary message. */
  cardMessageId?: number;
  /** The second tap a fee above the chat's confirm threshold needs. */
  confirmedAgain?: boolean;
}

/**
 * The fee the limits reckon with before a broadcast: the highest estimate (the service charges
 * what its simulation needs, known only from the record after acceptance).
 */
/** The history's line for a broadcast the service just accepted (202), read from the draft. */
export function acceptedEntry(draft: BroadcastDraft, broadcastId: string, status: string, atMs: number): HistoryEntry {
  const s = draft.summary;
  return {
    kind: "broadcast",
    id: broadcastId,
    createdAtMs: atMs,
    status,
    txId: s.txId,
    txKind: s.kind,
    // The 202 carries no fee: the estimate stands in (for the limits) until the tracker reads the charge.
    totalCostSun: Number(estimatedFeeSun(draft)),
    costEstimated: true,
    ...(s.toAddress === undefined ? {} : { address: s.toAddress }),
    ...(s.amountAtomic === undefined ? {} : { amountAtomic: s.amountAtomic }),
    ...(s.amountSun === undefined ? {} : { amountSun: s.amountSun }),
    ...(s.kind === "contract" ? { contractType: s.contractType, ...(s.contractAddress === undefined ? {} : { contractAddress: s.contractAddress }) } : {}),
  };
}

export function estimatedFeeSun(draft: BroadcastDraft): bigint {
  return draft.summary.estimates.reduce((max, e) => (BigInt(e.feeSun) > max ? BigInt(e.feeSun) : max), 0n);
}

export interface BroadcastSubmitter {
  submit(input: SubmitInput): Promise<SubmitResult>;
  cancel(chatId: number, draftId: string): Promise<BroadcastDraft | undefined>;
}

export function createBroadcastSubmitter(deps: BroadcastSubmitterDeps): BroadcastSubmitter {
  const { service, drafts, history, now, logger } = deps;
  const mutex = createKeyedMutex();

  async function track(draft: BroadcastDraft, broadcastId: string, input: SubmitInput, card: boolean): Promise<void> {
    const cardMessageId = card ? (input.cardMessageId ?? draft.messageId) : undefined;
    await deps.tracker.track({
      chatId: draft.chatId,
      kind: "broadcast",
      id: broadcastId,
      txExpirationMs: draft.summary.expirationMs,
      ...(input.locale === undefined ? {} : { locale: input.locale }),
      ...(cardMessageId === undefined ? {} : { cardMessageId }),
      ...(card && input.drawsCard ? { pendingCard: true } : {}),
    });
  }

  /** History, tracking and the draft's state in one step, before anything is shown; then the journal entry goes. */
  async function accepted(draft: BroadcastDraft, broadcastId: string, status: string, input: SubmitInput, card: boolean, inHistory = false): Promise<BroadcastDraft> {
    if (!inHistory) await history.add(draft.chatId, [acceptedEntry(draft, broadcastId, status, now())]);
    await track(draft, broadcastId, input, card);
    const saved = (await drafts.update(draft.draftId, (d) => ({ ...d, state: "submitted", broadcastId, lastErrorCode: undefined }))) ?? draft;
    await deps.pending.remove("broadcast", draft.draftId);
    return saved;
  }

  /**
   * `409 duplicate_tx`: a broadcast of this transaction exists. Ours (in the
   * history, or named by the service) is tracked and shown; one we cannot
   * find is explained without a guess.
   */
  async function duplicate(draft: BroadcastDraft, error: ServiceError, input: SubmitInput): Promise<SubmitResult> {
    const known = await history.findBroadcastByTxId(input.chatId, draft.summary.txId);
    const id = known?.id ?? error.broadcastId;
    if (id === undefined) {
      const saved = (await drafts.update(draft.draftId, (d) => ({ ...d, state: "open", lastErrorCode: error.code }))) ?? draft;
      await deps.pending.remove("broadcast", draft.draftId);
      return { status: "duplicate", draft: saved };
    }
    let status = known?.status;
    if (status === undefined) {
      try {
        status = (await service.getBroadcast(input.apiKey, id)).status;
      } catch (readError) {
        // The tracker reads it again within a second; the history line waits for that.
        logger.debug({ err: readError, broadcastId: id }, "first read of a duplicate's broadcast failed");
      }
    }
    const saved = await accepted(draft, id, status ?? "pending_energy", input, false, known !== undefined);
    logger.info({ draftId: draft.draftId, broadcastId: id }, "duplicate_tx: the existing broadcast is tracked");
    return { status: "duplicate", draft: saved, existing: (await history.get(input.chatId, "broadcast", id)) ?? known };
  }

  async function send(draft: BroadcastDraft, input: SubmitInput): Promise<SubmitResult> {
    const { chatId, draftId, apiKey } = input;
    // Sending again is safe: the service deduplicates by txId, so an attempt it saw answers duplicate_tx.
    await deps.pending.add({ kind: "broadcast", keyTag: keyTagOf(input.apiKey), id: draftId, chatId, sinceMs: now(), ...(input.locale === undefined ? {} : { locale: input.locale }) });
    const sending = (await drafts.update(draftId, (d) => ({ ...d, state: "submitting" }))) ?? draft;
    try {
      const result = await service.createBroadcast(draft.signedTx, apiKey);
      const saved = await accepted(sending, result.broadcastId, result.status, input, true);
      logger.info({ draftId, broadcastId: result.broadcastId }, "broadcast accepted");
      return { status: "submitted", draft: saved, broadcastId: result.broadcastId, initialStatus: result.status, alreadySubmitted: false };
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      if (error.code === "broadcast.duplicate_tx") return duplicate(sending, error, input);
      // Outcome unknown: a Retry meets duplicate_tx if it went through, which is then explained.
      const state = error.outcomeUnknown || error.status >= 500 ? "unknown" : "open";
      const saved = (await drafts.update(draftId, (d) => ({ ...d, state, lastErrorCode: error.code }))) ?? sending;
      if (state === "open") await deps.pending.remove("broadcast", draftId);
      logger.warn({ draftId, code: error.code, status: error.status, requestId: error.requestId }, "broadcast not accepted");
      return { status: "failed", draft: saved, error, retryable: state === "unknown" || error.isRetryable };
    }
  }

  return {
    submit(input) {
      const { chatId, draftId } = input;
      return mutex.run(draftId, async (): Promise<SubmitResult> => {
        const draft = await drafts.get(draftId);
        if (!draft || draft.chatId !== chatId) return { status: "not_found" };
        if (draft.state === "submitted" && draft.broadcastId) {
          // Charged means tracked, whichever tap or restart gets here.
          // Nothing new to draw: the tracker shows what it has not announced yet.
          await track(draft, draft.broadcastId, { ...input, drawsCard: false }, true);
          await deps.pending.remove("broadcast", draftId);
          return { status: "submitted", draft, broadcastId: draft.broadcastId, initialStatus: "pending_energy", alreadySubmitted: true };
        }
        if (draft.state === "cancelled") return { status: "cancelled", draft };
        if (draft.state === "submitting" || draft.state === "unknown") {
          // An earlier attempt may have been accepted: the history knows it if its acceptance was recorded.
          const known = await history.findBroadcastByTxId(chatId, draft.summary.txId);
          if (known) {
            const saved = await accepted(draft, known.id, known.status, { ...input, drawsCard: false }, true, true);
            return { status: "submitted", draft: saved, broadcastId: known.id, initialStatus: known.status, alreadySubmitted: true };
          }
        }
        if (draft.summary.expirationMs - now() < EXPIRED_BELOW_MS) return { status: "expired", draft };
        const { spend } = deps;
        // A draft that may already have been accepted (submitting, unknown) was allowed when first sent.
        if (!spend || draft.state !== "open") return send(draft, input);
        // The check and the charge it allows in one step per chat: two confirmations cannot both fit under a cap.
        return spend.exclusive(chatId, async (): Promise<SubmitResult> => {
          const feeSun = estimatedFeeSun(draft);
          const decision = await spend.authorize(chatId, feeSun, "broadcast");
          if (!decision.allowed) return { status: "over_limit", draft, refusal: decision, feeSun };
          if (decision.needsSecondTap && !input.confirmedAgain) return { status: "needs_second_tap", draft, feeSun };
          return send(draft, input);
        });
      });
    },
    cancel(chatId, draftId) {
      return mutex.run(draftId, async () => {
        const draft = await drafts.get(draftId);
        if (!draft || draft.chatId !== chatId) return undefined;
        if (draft.state !== "open") return draft;
        return drafts.update(draftId, (d) => ({ ...d, state: "cancelled" }));
      });
    },
  };
}
