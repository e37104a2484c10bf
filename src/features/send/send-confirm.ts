import type { SpendGuard, SpendRefusal } from "../../shared/limits/spend-guard.js";
import type { SendIntent, SendIntents } from "./send-intent.js";

export interface SendConfirmDeps {
  limits: Pick<SpendGuard, "authorize">;
  intents: Pick<SendIntents, "issueLink">;
  now: () => number;
}

/** What a Confirm of a quoted transfer comes to: the one-time link, or why there is none yet. */
export type SendConfirm =
  | { ok: true; intent: SendIntent; token: string }
  | { ok: false; reason: "refused"; refusal: SpendRefusal; feeSun: bigint }
  | { ok: false; reason: "needs_second_tap"; feeSun: bigint }
  | { ok: false; reason: "expired" };

/**
 * Confirm of /send's quote, for the chat's button and the Mini App alike: the fee is checked against the
 * chat's caps and second-tap threshold (the first-time estimate, the higher one), then the quote becomes a
 * one-time signing link. `again` is the second tap.
 */
export async function confirmSend(deps: SendConfirmDeps, intent: SendIntent, again: boolean): Promise<SendConfirm> {
  const feeSun = BigInt(intent.feeSun);
  const decision = await deps.limits.authorize(intent.chatId, feeSun, "broadcast");
  if (!decision.allowed) return { ok: false, reason: "refused", refusal: decision, feeSun };
  if (decision.needsSecondTap && !again) return { ok: false, reason: "needs_second_tap", feeSun };
  const issued = await deps.intents.issueLink(intent.intentId, deps.now());
  return issued ? { ok: true, ...issued } : { ok: false, reason: "expired" };
}
