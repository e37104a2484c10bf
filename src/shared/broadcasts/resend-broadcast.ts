import type { Logger } from "pino";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { isOutcomeUnknown, sendUntilKnown, type UntilKnownOptions } from "../../platform/service/until-known.js";
import { keyTagOf, type PendingConfirmations } from "../confirmations/pending-confirmations.js";
import type { OrderHistory } from "../orders/order-history.js";
import type { Tracker } from "../tracking/tracker.js";
import { MIN_TIME_LEFT_MS } from "../tron/index.js";
import type { SpendGate, SpendRefusal } from "../limits/spend-guard.js";
import type { BroadcastDraft, DraftStore } from "./draft.js";
import { acceptedEntry, estimatedFeeSun } from "./submit-broadcast.js";

/**
 * "Resend" of a broadcast that ended `failed`: the same signed transaction
 * again (API section 3 rule 2), from the draft the bot kept until the
 * transaction's expiration. One press sends at most once: presses are
 * serialized per transaction, a press finds the newer broadcast the first
 * one made (the history's newest for the txId), and the service itself
 * answers `409 duplicate_tx` while a broadcast of the txId is in flight.
 * A lost answer is checked like a first submission's: the same transaction
 * again until the service's answer arrives, journaled meanwhile so that a
 * restart resolves it too.
 */

export type ResendResult =
  | { status: "resent"; broadcastId: string; initialStatus: string; draft: BroadcastDraft }
  /** This broadcast was already sent again (by an earlier press or another process): the newer one. */
  | { status: "already"; broadcastId: string }
  /** The broadcast did not end `failed` (it is still under way, confirmed, or expired). */
  | { status: "not_failed"; currentStatus: string }
  /** Less than the service's minimum left, or the bot no longer has the signed transaction. */
  | { status: "needs_resign" }
  | { status: "not_found" }
  /** `afterUnknown`: the first answer was lost, and the checks found it refused. */
  | { status: "failed"; error: ServiceError; afterUnknown: boolean }
  /** Still unknown after the checks: the journal goes on resolving it, and the card it names is redrawn then. */
  | { status: "unknown"; draft: BroadcastDraft }
  /** The chat's limits refuse the fee (frozen, or a cap it would cross): nothing was sent. */
  | { status: "over_limit"; refusal: SpendRefusal; feeSun: bigint };

export interface BroadcastResenderDeps {
  service: Pick<ServiceClient, "createBroadcast" | "getBroadcast">;
  drafts: Pick<DraftStore, "get" | "update" | "recentIds">;
  history: Pick<OrderHistory, "get" | "add" | "findBroadcastByTxId">;
  tracker: Pick<Tracker, "track">;
  /** Resends in flight: what a crash or a lost answer leaves here is resolved in the background. */
  pending: PendingConfirmations;
  untilKnown?: Pick<UntilKnownOptions, "delaysMs" | "sleep">;
  /** A resend is charged again: the chat's limits are asked first. Without it nothing is limited. */
  spend?: SpendGate;
  now: () => number;
  logger: Logger;
}

export interface ResendInput {
  chatId: number;
  /** The broadcast that failed. */
  broadcastId: string;
  apiKey: string;
  locale?: string;
  /**
   * Called once when the first answer is lost, before the checks: tells the chat "it may have
   * been accepted, do not sign it again" and returns that message's id, which becomes the card.
   */
  onUnknown?: () => Promise<number | undefined>;
}

export interface BroadcastResender {
  resend(input: ResendInput): Promise<ResendResult>;
}

export function createBroadcastResender(deps: BroadcastResenderDeps): BroadcastResender {
  const { service, drafts, history, now, logger } = deps;
  const mutex = createKeyedMutex();

  /** The chat's kept draft of this transaction (its signed copy), newest first. */
  async function draftOf(chatId: number, txId: string, broadcastId: string): Promise<BroadcastDraft | undefined> {
    let sameTx: BroadcastDraft | undefined;
    for (const id of await drafts.recentIds(chatId)) {
      const draft = await drafts.get(id);
      if (draft?.chatId !== chatId || draft.summary.txId.toLowerCase() !== txId.toLowerCase()) continue;
      if (draft.broadcastId === broadcastId) return draft;
      sameTx ??= draft;
    }
    return sameTx;
  }

  /** Recorded before anything is shown, like a first submission: the history, tracking, the draft; then the journal entry goes. */
  async function recordResent(input: ResendInput, draft: BroadcastDraft, broadcastId: string, status: string): Promise<ResendResult> {
    const { chatId } = input;
    await history.add(chatId, [acceptedEntry(draft, broadcastId, status, now())]);
    await deps.tracker.track({
      chatId,
      kind: "broadcast",
      id: broadcastId,
      txExpirationMs: draft.summary.expirationMs,
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    });
    const saved = (await drafts.update(draft.draftId, (d) => ({ ...d, state: "submitted", broadcastId, lastErrorCode: undefined }))) ?? draft;
    await deps.pending.remove("broadcast", draft.draftId);
    logger.info({ failedBroadcastId: input.broadcastId, broadcastId }, "failed broadcast sent again");
    return { status: "resent", broadcastId, initialStatus: status, draft: saved };
  }

  async function send(input: ResendInput, draft: BroadcastDraft): Promise<ResendResult> {
    const { chatId, apiKey } = input;
    const { draftId } = draft;
    let afterUnknown = false;
    await deps.pending.add({
      kind: "broadcast",
      keyTag: keyTagOf(apiKey),
      id: draftId,
      chatId,
      sinceMs: now(),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    });
    // The summary message shows the broadcast that failed: this attempt's card is the one `onUnknown` names, if any.
    await drafts.update(draftId, (d) => ({ ...d, state: "submitting", messageId: undefined }));
    let accepted;
    try {
      accepted = await sendUntilKnown(() => service.createBroadcast(draft.signedTx, apiKey), {
        ...deps.untilKnown,
        onUnknown: async (error) => {
          afterUnknown = true;
          await drafts.update(draftId, (d) => ({ ...d, state: "unknown", lastErrorCode: error.code }));
          logger.warn({ draftId, code: error.code }, "resend's answer lost; checking by sending the same transaction again");
          const card = await input.onUnknown?.();
          if (card !== undefined) await drafts.update(draftId, (d) => ({ ...d, messageId: card }));
        },
      });
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      // After a lost answer, a broadcast of this transaction in flight is the one that answer would have named.
      if (error.code === "broadcast.duplicate_tx" && error.broadcastId !== undefined && afterUnknown)
        return recordResent(input, draft, error.broadcastId, "pending_energy");
      if (isOutcomeUnknown(error)) {
        logger.warn({ draftId, code: error.code }, "resend still unknown; the journal resolves it");
        return { status: "unknown", draft: (await drafts.get(draftId)) ?? draft };
      }
      // Certainly not sent again: the draft is the failed broadcast's copy as before.
      await drafts.update(draftId, (d) => ({ ...d, state: "submitted", lastErrorCode: error.code }));
      await deps.pending.remove("broadcast", draftId);
      if (error.code === "broadcast.duplicate_tx" && error.broadcastId !== undefined) return { status: "already", broadcastId: error.broadcastId };
      logger.warn({ broadcastId: input.broadcastId, code: error.code, requestId: error.requestId }, "resend not accepted");
      return { status: "failed", error, afterUnknown };
    }
    return recordResent(input, draft, accepted.broadcastId, accepted.status);
  }

  return {
    async resend(input) {
      const { chatId, broadcastId, apiKey } = input;
      const entry = await history.get(chatId, "broadcast", broadcastId);
      if (entry?.txId === undefined) return { status: "not_found" };
      const { txId } = entry;
      return mutex.run(txId.toLowerCase(), async (): Promise<ResendResult> => {
        const newest = await history.findBroadcastByTxId(chatId, txId);
        if (newest && newest.id !== broadcastId) return { status: "already", broadcastId: newest.id };
        // The service's word, not the history's: the press must not resend what is still under way.
        const current = await service.getBroadcast(apiKey, broadcastId);
        if (current.status !== "failed") return { status: "not_failed", currentStatus: current.status };
        if (current.txExpirationMs - now() < MIN_TIME_LEFT_MS) return { status: "needs_resign" };
        const draft = await draftOf(chatId, txId, broadcastId);
        if (!draft) return { status: "needs_resign" };
        const { spend } = deps;
        if (!spend) return send(input, draft);
        // The check and the charge it allows in one step per chat, as for a first submission.
        return spend.exclusive(chatId, async (): Promise<ResendResult> => {
          const feeSun = estimatedFeeSun(draft);
          const decision = await spend.authorize(chatId, feeSun, "broadcast");
          if (!decision.allowed) return { status: "over_limit", refusal: decision, feeSun };
          return send(input, draft);
        });
      });
    },
  };
}
