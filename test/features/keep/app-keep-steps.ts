/**
 * Steps of the keep-plan tests through the whole app (test/features/keep/app-keep.test.ts and
 * test/features/keep/app-keep-digest.slow.test.ts): the fast plan settings, linking a chat,
 * starting a plan from its proposal and reading the plan's card.
 */
import { waitFor, type AppWorld } from "../../app-harness.js";

/**
 * A 50 ms tick and a lead of 0.99 of the duration: the next slot is bought right after the current
 * order is delivered, so a 1m plan renews about once a second.
 */
export const FAST_KEEP = {
  KEEP_TICK_MS: "50",
  KEEP_RENEWAL_LEAD_MS: "60000",
  KEEP_LEAD_MAX_FRACTION: "0.99",
  KEEP_LEASE_TTL_MS: "2000",
  KEEP_BALANCE_RECHECK_MS: "50",
};

/** Orders the simulator created (201) under plan slot keys, by key. */
export function slotPurchases(w: AppWorld): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const r of w.sim.requests) {
    if (r.method !== "POST" || r.path !== "/v1/orders" || r.status !== 201 || !r.idempotencyKey?.startsWith("keep-")) continue;
    byKey.set(r.idempotencyKey, (byKey.get(r.idempotencyKey) ?? 0) + 1);
  }
  return byKey;
}

export const debits = (w: AppWorld, accountId: string) => w.sim.ledger(accountId).filter((e) => e.kind === "debit");

/** A new account with `balanceSun`, linked in the chat; its id. */
export async function linkedChat(w: AppWorld, chatId: number, balanceSun: number): Promise<string> {
  const account = w.sim.createAccount({ balanceSun });
  await w.say(chatId, `/link ${account.apiKey} ${account.webhookSecret}`, (m) => /connected/i.test(m.text));
  return account.accountId;
}

/** Sends the command and taps the proposal's Start: the proposal's text, and the message that is now the plan's card. */
export async function startPlan(w: AppWorld, chatId: number, command: string): Promise<{ proposal: string; cardId: number }> {
  const proposal = await w.say(chatId, command, (m) => m.text.includes("Keep charged"));
  // Read before Start: the stored message follows its edits, and the proposal becomes the card.
  const { text, messageId } = proposal;
  w.front.enqueue(w.tg.press(chatId, "✅ Start", { messageId }));
  await waitFor(() => w.textOf(chatId, messageId).includes("Plan: keep charged"), "the plan's card");
  return { proposal: text, cardId: messageId };
}

/**
 * The card once the plan bought its last order and that order is delivered: it counts every order the
 * account was charged for since its `firstCharge`-th charge (the plan's first) and names the last one
 * fulfilled. The plan must be stopped (or held) first.
 */
export function planCardDone(w: AppWorld, chatId: number, cardId: number, accountId: string, firstCharge = 0): Promise<string> {
  return waitFor(() => {
    const charged = debits(w, accountId).slice(firstCharge);
    const text = w.textOf(chatId, cardId);
    const last = charged.at(-1)?.ref;
    return last !== undefined && text.includes(`Orders placed: ${charged.length}\n`) && text.includes(`Last order ${last}: fulfilled`) && text;
  }, "the card showing every order, the last one delivered");
}
