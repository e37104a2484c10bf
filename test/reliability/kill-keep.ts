/**
 * The keep-charged plan flow of the kill -9 suite (kill-suite.ts): a 1m plan
 * whose next slot is due about 6 s after the current order is seen fulfilled;
 * the bot is killed at a different point of each gap (before, around and
 * after the next slot's purchase) and started again over the same store.
 * Counted from outside: each slot charged once (the plan's own record of its
 * slots against the service's ledger), each slot's delivery shown on the
 * plan's card (renewals have no notice of their own: the card names the
 * newest order and its status), and whether any slot's order was placed only
 * after the previous slot's delegation had ended (the service's fulfilment
 * time + the duration, against its creation time).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { RECEIVER, waitFor } from "../app-harness.js";
import { countDelay, type KillFigures } from "../../testkit/kill-figures.js";
import type { BotProcess, KillWorld } from "./kill-world.js";

const DURATION_SEC = 60;
/**
 * Looks at plans every 500 ms, buys the next slot 54 s before a 60 s delegation ends, and a killed
 * process's plan is taken over 2 s after its last look: the suite's scale. In production the tick is
 * 5 s and the lease 15 s (docs/reliability.md says what follows).
 */
export const KEEP_ENV = { KEEP_TICK_MS: "500", KEEP_RENEWAL_LEAD_MS: "54000", KEEP_LEAD_MAX_FRACTION: "0.9", KEEP_LEASE_TTL_MS: "2000" };
/** Milliseconds from a slot's notice to the kill: the next slot is due about 6 s after it. */
const KEEP_KILL_DELAYS_MS = [0, 1500, 3000, 4500, 5500, 5800, 6000, 6100, 6250, 6400, 6700, 7500];

export interface KeepRoundsDeps {
  w: KillWorld;
  bot: BotProcess;
  chat: number;
  rounds: number;
  figures: KillFigures;
  lostAfterMs: number;
  /** Resolves once no push job is left (a resend of a killed process's job is in the chat then). */
  settlePush: () => Promise<unknown>;
}

/** Runs the rounds and fills in the figures; returns the bot process running at the end. */
export async function keepRounds(d: KeepRoundsDeps): Promise<BotProcess> {
  const { w, chat, rounds, figures: f } = d;
  let bot = d.bot;
  const before = w.debits().length;
  const proposal = await w.say(chat, `/keep ${RECEIVER} 100k 1m`, (m) => m.text.includes("Keep charged"));
  await w.tap(chat, "✅ Start", proposal.messageId);
  const planId = (await waitFor(async () => (await w.plansOf(chat))[0] ?? false, "the plan made", 40_000)).planId;
  /** Slot number → its order, as the plan recorded it (the plan keeps its last 20 slots, so read as they come). */
  const slotOrders = new Map<number, string>();
  const readSlots = async () => {
    const plan = (await w.plansOf(chat)).find((p) => p.planId === planId);
    for (const s of plan?.slots ?? []) if (!slotOrders.has(s.slot)) slotOrders.set(s.slot, s.orderId);
  };
  /** The card drawn with this order delivered as the plan's newest. */
  const deliveredOnCard = (id: string) => (text: string) => text.includes(`Last order ${id}: fulfilled`);
  const announced = (id: string | undefined) => id !== undefined && w.firstShownAt(chat, deliveredOnCard(id)) !== undefined;
  /**
   * When the card first showed the slot delivered, or a later slot's order (bought only once this one was
   * delivered): a newer draw of the card replaces one still waiting, so the later state may be the first one drawn.
   */
  const shownAt = (ids: readonly string[], n: number): number | undefined => {
    const later = ids.slice(n + 1);
    return w.firstShownAt(chat, (t) => deliveredOnCard(ids[n]!)(t) || later.some((id) => t.includes(`Last order ${id}:`)));
  };
  /** The slot's order once bought, and whether the card showed it delivered within the wait. */
  async function slotSeen(n: number): Promise<string> {
    const id = await waitFor(async () => (await readSlots(), slotOrders.get(n) ?? false), `slot ${n} bought`, d.lostAfterMs);
    await waitFor(() => announced(id), `slot ${n} announced`, d.lostAfterMs).catch(() => undefined);
    return id;
  }

  for (let round = 0; round < rounds; round += 1) {
    await slotSeen(round);
    const chargedBefore = w.debits().length;
    await sleep(KEEP_KILL_DELAYS_MS[round % KEEP_KILL_DELAYS_MS.length]);
    await readSlots();
    const next = slotOrders.get(round + 1);
    const landed = w.debits().length === chargedBefore ? "beforeCharge" : announced(next) ? "afterCard" : "chargedBeforeCard";
    await w.kill(bot);
    bot = await w.startBot();
    f.landed[landed] += 1;
    f.kills += 1;
  }
  // The slot after the last kill too: bought and announced by the restarted process.
  const ids: string[] = [];
  for (let n = 0; n <= rounds; n += 1) ids.push(await slotSeen(n));
  await d.settlePush();
  await readSlots();

  for (const [n, id] of ids.entries()) {
    const shown = shownAt(ids, n);
    if (shown === undefined) f.lostAnnouncements += 1;
    const fulfilled = w.statusAt(id, "fulfilled");
    if (shown !== undefined && fulfilled !== undefined) countDelay(f, shown - fulfilled);
    // A renewal told by a notice of its own is one message too many: the card is its only announcement.
    f.doubledAnnouncements += w.botTexts(chat, new RegExp(`^✅ Order ${id} is fulfilled`)).length;
    const nextPlaced = n < rounds ? w.statusAt(ids[n + 1]!, "pending") : undefined;
    if (nextPlaced !== undefined && fulfilled !== undefined && nextPlaced > fulfilled + DURATION_SEC * 1000) f.renewalsLapsed += 1;
  }
  // Every charge since the plan started is one of its slots. The plan buys on after the last measured
  // slot, and a charge shows in the ledger a moment before the plan records it: read until they agree.
  const strays = () =>
    w
      .debits()
      .slice(before)
      .filter((c) => c.ref === undefined || !new Set(slotOrders.values()).has(c.ref));
  await waitFor(async () => (await readSlots(), strays().length === 0), "every charge recorded as a slot", 30_000).catch(() => undefined);
  f.charges += w.debits().length - before;
  f.doubledCharges += strays().length;
  return bot;
}
