import type { Logger } from "pino";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { ServiceError } from "../../platform/service/errors.js";
import { isOutcomeUnknown, sendUntilKnown, type UntilKnownOptions } from "../../platform/service/until-known.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { keyTagOf, type PendingConfirmations } from "../confirmations/pending-confirmations.js";
import type { HistoryEntry, OrderHistory } from "../orders/order-history.js";
import type { Tracker } from "../tracking/tracker.js";
import type { SpendGate, SpendRefusal } from "../limits/spend-guard.js";
import { EXPIRED_BELOW_MS } from "../tron/index.js";
import type { BroadcastDraft, DraftStore } from "./draft.js";
import { isResubmittable } from "./check-broadcast.js";

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
  /** Asked to resolve (`resolving`) a draft whose outcome is known already: nothing was sent. */
  | { status: "settled"; draft: BroadcastDraft }
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
  /** How long a lost answer is checked by sending again before the journal takes over (tests shorten it). */
  untilKnown?: Pick<UntilKnownOptions, "delaysMs" | "sleep">;
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
  /**
   * Called once when the first answer is lost (the service may have accepted it), before it is
   * checked by sending the same transaction again: the chat must hear "do not sign it again" now.
   */
  onUnknown?: () => Promise<void>;
  /** Only a draft whose outcome is still unknown may be sent (the journal's resolution); any other is `settled`. */
  resolving?: boolean;
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
    // Every kind keeps what the summary said, so the card after Confirm says the same (not "another contract call").
    contractType: s.contractType,
    ...(s.contractAddress === undefined ? {} : { contractAddress: s.contractAddress }),
    ...(s.details === undefined ? {} : { details: s.details }),
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
  async function accepted(
    draft: BroadcastDraft,
    broadcastId: string,
    status: string,
    input: SubmitInput,
    card: boolean,
    inHistory = false,
  ): Promise<BroadcastDraft> {
    if (!inHistory) await history.add(draft.chatId, [acceptedEntry(draft, broadcastId, status, now())]);
    await track(draft, broadcastId, input, card);
    const saved = (await drafts.update(draft.draftId, (d) => ({ ...d, state: "submitted", broadcastId, lastErrorCode: undefined }))) ?? draft;
    await deps.pending.remove("broadcast", draft.draftId);
    return saved;
  }

  /**
   * `409 duplicate_tx`: a broadcast of this transaction exists. Ours (in the
   * history, or named by the service) is tracked and shown; one we cannot
   * find is explained without a guess. After a lost answer (`afterUnknown`)
   * it is the one our lost attempt made: the card becomes its card, as for a 202.
   */
  async function duplicate(draft: BroadcastDraft, error: ServiceError, input: SubmitInput, afterUnknown: boolean): Promise<SubmitResult> {
    // The service's name wins; the history's newest counts only while it is still under way or confirmed
    // (after a Resend the newest may be the broadcast that failed, not the one the 409 is about).
    const newest = await history.findBroadcastByTxId(input.chatId, draft.summary.txId);
    const id = error.broadcastId ?? (newest && !isResubmittable(newest.status) ? newest.id : undefined);
    const known = newest !== undefined && newest.id === id ? newest : undefined;
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
    const saved = await accepted(draft, id, status ?? "pending_energy", input, afterUnknown, known !== undefined);
    logger.info({ draftId: draft.draftId, broadcastId: id, afterUnknown }, "duplicate_tx: the existing broadcast is tracked");
    if (afterUnknown) return { status: "submitted", draft: saved, broadcastId: id, initialStatus: status ?? "pending_energy", alreadySubmitted: false };
    return { status: "duplicate", draft: saved, existing: (await history.get(input.chatId, "broadcast", id)) ?? known };
  }

  async function send(draft: BroadcastDraft, input: SubmitInput): Promise<SubmitResult> {
    const { chatId, draftId, apiKey } = input;
    // A draft sent before whose answer was lost: a duplicate_tx now is that earlier attempt.
    let afterUnknown = draft.state === "submitting" || draft.state === "unknown";
    await deps.pending.add({
      kind: "broadcast",
      keyTag: keyTagOf(input.apiKey),
      id: draftId,
      chatId,
      sinceMs: now(),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    });
    // The card is remembered with the attempt: a resolution after a restart edits the same message.
    const card = input.cardMessageId ?? draft.messageId;
    const sending = (await drafts.update(draftId, (d) => ({ ...d, state: "submitting", ...(card === undefined ? {} : { messageId: card }) }))) ?? draft;
    try {
      // Sending again is safe: the service deduplicates by txId, so an attempt it saw answers duplicate_tx.
      const result = await sendUntilKnown(() => service.createBroadcast(draft.signedTx, apiKey), {
        ...deps.untilKnown,
        onUnknown: async (error) => {
          afterUnknown = true;
          await drafts.update(draftId, (d) => ({ ...d, state: "unknown", lastErrorCode: error.code }));
          logger.warn({ draftId, code: error.code, status: error.status }, "broadcast's answer lost; checking by sending the same transaction again");
          await input.onUnknown?.();
        },
      });
      const saved = await accepted(sending, result.broadcastId, result.status, input, true);
      logger.info({ draftId, broadcastId: result.broadcastId, afterUnknown }, "broadcast accepted");
      return { status: "submitted", draft: saved, broadcastId: result.broadcastId, initialStatus: result.status, alreadySubmitted: false };
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      if (error.code === "broadcast.duplicate_tx") return duplicate(sending, error, input, afterUnknown);
      // Still unknown after the checks: the journal entry stays and its resolution goes on in the background.
      const state = isOutcomeUnknown(error) ? "unknown" : "open";
      const saved = (await drafts.update(draftId, (d) => ({ ...d, state, lastErrorCode: error.code }))) ?? sending;
      if (state === "open") await deps.pending.remove("broadcast", draftId);
      logger.warn({ draftId, code: error.code, status: error.status, requestId: error.requestId, state }, "broadcast not accepted");
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
        if (input.resolving && draft.state !== "submitting" && draft.state !== "unknown") return { status: "settled", draft };
        if (draft.state === "submitting" || draft.state === "unknown") {
          // An earlier attempt may have been accepted: the history knows it if its acceptance was recorded.
          // One that ended failed or expired is the broadcast a Resend was sending again, not its outcome.
          const known = await history.findBroadcastByTxId(chatId, draft.summary.txId);
          if (known && !isResubmittable(known.status)) {
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
