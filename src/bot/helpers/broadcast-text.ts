import { precheckBroadcast, type BroadcastSummary, type PrecheckRejection } from "../../core/broadcasts/precheck.js";
import type { BroadcastDraft } from "../../core/broadcasts/draft.js";
import type { ChatRepository } from "../../core/chats/chat-repository.js";
import type { PricingCache } from "../../core/pricing-cache.js";
import type { ConversationContext } from "../context.js";
import type { Flows } from "../../core/flows.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { broadcastKindLines } from "./broadcast-kind-text.js";

type Tr = Pick<ConversationContext, "t">;

export type CheckResult =
  | { ok: true; draft: BroadcastDraft; baseUnitPriceSun: number; nowMs: number }
  | { ok: false; reason: PrecheckRejection | "pricing_unavailable"; detail?: string };

/** Local checks (nothing reaches the service), then a stored draft awaiting Confirm. */
export async function checkSignedTx(deps: { pricing: Pick<PricingCache, "get">; flows: Flows; chats: Pick<ChatRepository, "get"> }, chatId: number, input: string): Promise<CheckResult> {
  const nowMs = deps.flows.now();
  const usdt = deps.flows.usdtContract ? { usdtContract: deps.flows.usdtContract } : {};
  // Verified before anything else, prices included: a refused transaction causes no request at all.
  const verified = precheckBroadcast({ input, nowMs, baseUnitPriceSun: 0, ...usdt });
  if (!verified.ok) return verified.detail === undefined ? { ok: false, reason: verified.reason } : { ok: false, reason: verified.reason, detail: verified.detail };
  let baseUnitPriceSun: number;
  try {
    baseUnitPriceSun = (await deps.pricing.get()).baseUnitPriceSun;
  } catch {
    return { ok: false, reason: "pricing_unavailable" };
  }
  const priced = precheckBroadcast({ input: verified.signedTx, nowMs, baseUnitPriceSun, ...usdt });
  if (!priced.ok) return { ok: false, reason: priced.reason };
  const draft = await deps.flows.drafts.create(chatId, priced.signedTx, priced.summary, nowMs, (await deps.chats.get(chatId))?.linkId);
  return { ok: true, draft, baseUnitPriceSun, nowMs };
}

export function refusalText(tr: Tr, reason: CheckResult & { ok: false }): string {
  return translate(tr, `broadcast-refused-${reason.reason.replace(/_/g, "-")}`, { detail: reason.detail ?? "-" });
}

function timeLeft(tr: Tr, ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return translate(tr, "tracking-time-left", { minutes: Math.floor(total / 60), seconds: total % 60 });
}

/** Kind, exact amount, from, to, time left, estimated resource and fee at the base unit price. */
export function summaryText(tr: Tr, s: BroadcastSummary, locale: string, nowMs: number, baseUnitPriceSun: number): string {
  const lines = [translate(tr, "broadcast-summary-title")];
  lines.push(...broadcastKindLines(tr, s, locale));
  lines.push(translate(tr, "broadcast-summary-from", { address: code(s.fromAddress) }));
  if (s.toAddress) lines.push(translate(tr, "broadcast-summary-to", { address: code(s.toAddress) }));
  lines.push(translate(tr, "broadcast-summary-txid", { txId: code(s.txId) }));
  // Said before any request: the service only counts the owner's signature.
  if (s.permissionId !== undefined) lines.push(translate(tr, "broadcast-summary-permission", { permissionId: s.permissionId, address: code(s.fromAddress) }));
  lines.push(translate(tr, "broadcast-summary-time-left", { timeLeft: timeLeft(tr, s.expirationMs - nowMs) }));
  const unitPriceSun = formatInteger(baseUnitPriceSun, locale);
  const [first, second] = s.estimates;
  if (s.kind === "usdt" && first && second) {
    lines.push(
      translate(tr, "broadcast-summary-energy-usdt", { holder: formatInteger(first.units, locale), firstTime: formatInteger(second.units, locale) }),
      translate(tr, "broadcast-summary-fee-usdt", { unitPriceSun, holderTrx: formatTrx(BigInt(first.feeSun), locale), firstTimeTrx: formatTrx(BigInt(second.feeSun), locale) }),
    );
  } else if (first) {
    const key = s.resource === "BANDWIDTH" ? "broadcast-summary-bandwidth" : "broadcast-summary-energy";
    lines.push(translate(tr, key, { units: formatInteger(first.units, locale), unitPriceSun, feeTrx: formatTrx(BigInt(first.feeSun), locale) }));
  }
  lines.push(translate(tr, "broadcast-summary-confirm-hint"));
  return lines.join("\n");
}
