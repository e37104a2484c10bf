import type { Logger } from "pino";
import { createKeyedMutex } from "../store/keyed-mutex.js";
import { ServiceError } from "../service/errors.js";
import type { ServiceClient } from "../service/client.js";
import type { HistoryEntry, OrderHistory } from "../orders/order-history.js";
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
  | { status: "cancelled"; draft: BroadcastDraft }
  | { status: "expired"; draft: BroadcastDraft }
  | { status: "duplicate"; draft: BroadcastDraft; existing?: HistoryEntry }
  | { status: "failed"; draft: BroadcastDraft; error: ServiceError; retryable: boolean };

export interface BroadcastSubmitterDeps {
  service: Pick<ServiceClient, "createBroadcast">;
  drafts: DraftStore;
  history: OrderHistory;
  now: () => number;
  logger: Logger;
}

export interface BroadcastSubmitter {
  submit(input: { chatId: number; draftId: string; apiKey: string }): Promise<SubmitResult>;
  cancel(chatId: number, draftId: string): Promise<BroadcastDraft | undefined>;
}

/** Worth a Retry button: nothing was charged and the cause may pass. */
const RETRYABLE: ReadonlySet<string> = new Set(["broadcast.upstream_unavailable", "rate_limited", "wallet.insufficient_balance"]);

export function createBroadcastSubmitter(deps: BroadcastSubmitterDeps): BroadcastSubmitter {
  const { service, drafts, history, now, logger } = deps;
  const mutex = createKeyedMutex();

  async function accepted(draft: BroadcastDraft, broadcastId: string, status: string): Promise<BroadcastDraft> {
    const s = draft.summary;
    await history.add(draft.chatId, [
      {
        kind: "broadcast",
        id: broadcastId,
        createdAtMs: now(),
        status,
        txId: s.txId,
        txKind: s.kind,
        ...(s.toAddress === undefined ? {} : { address: s.toAddress }),
        ...(s.amountAtomic === undefined ? {} : { amountAtomic: s.amountAtomic }),
        ...(s.amountSun === undefined ? {} : { amountSun: s.amountSun }),
        ...(s.kind === "contract" ? { contractType: s.contractType, ...(s.contractAddress === undefined ? {} : { contractAddress: s.contractAddress }) } : {}),
      },
    ]);
    return (await drafts.update(draft.draftId, (d) => ({ ...d, state: "submitted", broadcastId, lastErrorCode: undefined }))) ?? draft;
  }

  return {
    submit({ chatId, draftId, apiKey }) {
      return mutex.run(draftId, async (): Promise<SubmitResult> => {
        const draft = await drafts.get(draftId);
        if (!draft || draft.chatId !== chatId) return { status: "not_found" };
        if (draft.state === "submitted" && draft.broadcastId) {
          return { status: "submitted", draft, broadcastId: draft.broadcastId, initialStatus: "pending_energy", alreadySubmitted: true };
        }
        if (draft.state === "cancelled") return { status: "cancelled", draft };
        if (draft.summary.expirationMs - now() < EXPIRED_BELOW_MS) return { status: "expired", draft };
        const sending = (await drafts.update(draftId, (d) => ({ ...d, state: "submitting" }))) ?? draft;
        try {
          const result = await service.createBroadcast(draft.signedTx, apiKey);
          const saved = await accepted(sending, result.broadcastId, result.status);
          logger.info({ draftId, broadcastId: result.broadcastId }, "broadcast accepted");
          return { status: "submitted", draft: saved, broadcastId: result.broadcastId, initialStatus: result.status, alreadySubmitted: false };
        } catch (error) {
          if (!ServiceError.isInstance(error)) throw error;
          if (error.code === "broadcast.duplicate_tx") {
            const existing = await history.findBroadcastByTxId(chatId, draft.summary.txId);
            const saved = (await drafts.update(draftId, (d) => ({ ...d, state: "open", lastErrorCode: error.code }))) ?? sending;
            return existing ? { status: "duplicate", draft: saved, existing } : { status: "duplicate", draft: saved };
          }
          // Outcome unknown: a Retry meets duplicate_tx if it went through, which is then explained.
          const state = error.outcomeUnknown || error.status >= 500 ? "unknown" : "open";
          const saved = (await drafts.update(draftId, (d) => ({ ...d, state, lastErrorCode: error.code }))) ?? sending;
          logger.warn({ draftId, code: error.code, status: error.status, requestId: error.requestId }, "broadcast not accepted");
          return { status: "failed", draft: saved, error, retryable: state === "unknown" || RETRYABLE.has(error.code) };
        }
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
