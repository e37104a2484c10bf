import type { Logger } from "pino";
import type { LinkedChat } from "../chats/chat-repository.js";
import type { OrderHistory } from "../orders/order-history.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { BroadcastDraft, DraftStore } from "./draft.js";
import { describeTxRefusal, type TxRefusal } from "../tron/index.js";
import { summarizeBroadcast, verifyBroadcast, type PrecheckRefusal } from "./precheck.js";

export type CheckResult =
  { ok: true; draft: BroadcastDraft; baseUnitPriceSun: number; nowMs: number } | ({ ok: false } & (PrecheckRefusal | { reason: "pricing_unavailable" }));

/** An earlier broadcast of the same txId made by this chat, with its current status. */
export interface PriorBroadcast {
  broadcastId: string;
  status: string;
}

/** A checked transaction and what the chat already did with it; JSON, so a conversation can keep it. */
export interface CheckOutcome {
  result: CheckResult;
  prior?: PriorBroadcast;
}

export interface CheckBroadcastDeps {
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBroadcast">;
  drafts: Pick<DraftStore, "create" | "update">;
  history: Pick<OrderHistory, "findBroadcastByTxId">;
  now: () => number;
  /** Base58 stablecoin contract; mainnet USDT by default. */
  usdtContract?: string | undefined;
  logger: Pick<Logger, "debug" | "info">;
}

const isTxRefusal = (r: PrecheckRefusal | { reason: "pricing_unavailable" }): r is TxRefusal =>
  r.reason !== "not_json" && r.reason !== "too_large" && r.reason !== "pricing_unavailable";

/** In flight or confirmed: the service refuses the same txId (duplicate_tx), so Confirm is not offered. */
export const isResubmittable = (status: string): boolean => status === "failed" || status === "expired";

/**
 * Local checks (nothing reaches the service), then a stored draft awaiting
 * Confirm under the chat's current link. The transaction is verified once,
 * before anything else, prices included: a refused one causes no request at all.
 */
export async function checkSignedTx(
  deps: Omit<CheckBroadcastDeps, "service" | "history" | "logger">,
  chatId: number,
  linkId: string | undefined,
  input: string,
): Promise<CheckResult> {
  const nowMs = deps.now();
  const verified = verifyBroadcast({ input, nowMs, ...(deps.usdtContract ? { usdtContract: deps.usdtContract } : {}) });
  if (!verified.ok) return verified;
  let baseUnitPriceSun: number;
  try {
    baseUnitPriceSun = (await deps.pricing.get()).baseUnitPriceSun;
  } catch {
    return { ok: false, reason: "pricing_unavailable" };
  }
  const draft = await deps.drafts.create(chatId, verified.signedTx, summarizeBroadcast(verified.tx, baseUnitPriceSun), nowMs, linkId);
  return { ok: true, draft, baseUnitPriceSun, nowMs };
}

/**
 * Local checks, then the chat's history for the same txId (its live status
 * when it can be read with the chat's key). A transaction already in flight
 * or confirmed gets no Confirm: its draft is cancelled and the chat is
 * pointed at the broadcast.
 */
export async function checkBroadcast(deps: CheckBroadcastDeps, chatId: number, linked: LinkedChat | undefined, text: string): Promise<CheckOutcome> {
  const result = await checkSignedTx(deps, chatId, linked?.record.linkId, text);
  if (!result.ok) {
    const { ok: _ok, ...rest } = result;
    // A declared txID that is not the transaction's own is arbitrary 64-hex input: the shape of a private key.
    const refusal = rest.reason === "txid_mismatch" ? { ...rest, declared: `${rest.declared.slice(0, 8)}…` } : rest;
    deps.logger.info({ refusal, ...(isTxRefusal(refusal) ? { why: describeTxRefusal(refusal) } : {}) }, "signed transaction refused locally");
    return { result };
  }
  const known = await deps.history.findBroadcastByTxId(chatId, result.draft.summary.txId);
  if (!known) return { result };
  let status = known.status;
  try {
    if (linked !== undefined) status = (await deps.service.getBroadcast(linked.apiKey, known.id)).status;
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    deps.logger.debug({ code: error.code, broadcastId: known.id }, "earlier broadcast unreadable; using its last status seen");
  }
  if (!isResubmittable(status)) await deps.drafts.update(result.draft.draftId, (d) => ({ ...d, state: "cancelled" }));
  return { result, prior: { broadcastId: known.id, status } };
}
