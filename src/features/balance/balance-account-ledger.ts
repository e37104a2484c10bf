import { z } from "zod";
import type { HistoryEntry } from "../../shared/orders/order-history.js";

/**
 * What the balance watch remembers of one linked chat, and the arithmetic
 * that tells a deposit or a foreign charge from the bot's own spending.
 *
 * Between two reads the balance moves by deposits + refunds − charges. The
 * bot's own charges are the history entries it had not counted at the last
 * read (an order's `totalCostSun`, a broadcast's fee); its refunds are its
 * broadcasts that ended `failed` or `expired` since. What is left over is
 * not the bot's doing: a rise is a deposit, a fall a charge made elsewhere.
 */

export const accountWatchStateSchema = z.object({
  /** Which link this is about (a re-link starts a new baseline, with new announcement ids). */
  linkTag: z.string(),
  /** The balance at the last judged read, exact sun. */
  lastSun: z.string().regex(/^\d+$/),
  readAtMs: z.number().int(),
  /** Judged reads so far: part of every announcement id, so a reading told twice is sent once. */
  seq: z.number().int().nonnegative(),
  /** `<kind>:<id>` of the history entries already counted in `lastSun`. */
  seen: z.array(z.string()),
  /** Broadcast ids whose refund is already counted in `lastSun`. */
  refunded: z.array(z.string()),
  /** Below the low-balance threshold at the last read: the alert is armed only when false. */
  low: z.boolean(),
  /**
   * "account" once `seen` and `refunded` are about the account's history (every chat linked to it). Absent
   * on a state kept when the history was the chat's own: see `adoptAccountHistory`.
   */
  scope: z.literal("account").optional(),
});
export type AccountWatchState = z.infer<typeof accountWatchStateSchema>;

/** Statuses after which the service has refunded a broadcast's fee (API section 3). */
export const REFUNDED_STATUSES: ReadonlySet<string> = new Set(["failed", "expired"]);
const FINISHED_BROADCAST: ReadonlySet<string> = new Set(["confirmed", "failed", "expired"]);

export const entryKey = (e: Pick<HistoryEntry, "kind" | "id">): string => `${e.kind}:${e.id}`;

/** A broadcast as the service has it now: its fee and whether it was refunded. */
export interface BroadcastFacts {
  feeSun: bigint;
  status: string;
}

export interface LedgerInput {
  state: AccountWatchState;
  balanceSun: bigint;
  entries: readonly HistoryEntry[];
  /** The service's record of a broadcast; undefined when it cannot be read now (judgment waits). */
  broadcast: (id: string) => Promise<BroadcastFacts | undefined>;
}

export interface LedgerResult {
  /** What the bot charged since the last read. */
  chargedSun: bigint;
  /** What came back to the bot's failed or expired broadcasts since the last read. */
  refundSun: bigint;
  /** Change not explained by the bot: > 0 a deposit, < 0 a charge made elsewhere. */
  unexplainedSun: bigint;
  seen: string[];
  refunded: string[];
}

/**
 * Counts the bot's own effect on the balance since the last read (what the history holds: placed through any
 * chat of the account, or made elsewhere and seen since). Undefined
 * when a broadcast's fee cannot be read now: the reading is judged later.
 * A broadcast the history still shows unfinished is read from the service
 * only when the balance rose more than explained: its refund may have come
 * before the tracker saw it end, and a refund is never a deposit.
 */
export async function countOwnEffect({ state, balanceSun, entries, broadcast }: LedgerInput): Promise<LedgerResult | undefined> {
  const seen = new Set(state.seen);
  const refunded = new Set(state.refunded);
  let chargedSun = 0n;
  let refundSun = 0n;
  const feeOf = async (e: HistoryEntry): Promise<BroadcastFacts | undefined> =>
    e.totalCostSun === undefined ? broadcast(e.id) : { feeSun: BigInt(e.totalCostSun), status: e.status };

  for (const e of entries) {
    // A charge made elsewhere that joined the history after a read which already held it: that read told it as
    // a foreign charge, and counting it now would turn it into a deposit that never was.
    const toldBefore = e.madeElsewhere === true && e.createdAtMs <= state.readAtMs;
    const isNew = !seen.has(entryKey(e)) && !toldBefore;
    const refundNow = e.kind === "broadcast" && REFUNDED_STATUSES.has(e.status) && !refunded.has(e.id);
    if (!isNew && !refundNow) continue;
    if (e.kind === "order") {
      chargedSun += BigInt(e.totalCostSun ?? 0);
      continue;
    }
    const facts = await feeOf(e);
    if (facts === undefined) return undefined;
    if (isNew) chargedSun += facts.feeSun;
    if (refundNow) {
      refundSun += facts.feeSun;
      refunded.add(e.id);
    }
  }

  let unexplainedSun = balanceSun - BigInt(state.lastSun) + chargedSun - refundSun;
  if (unexplainedSun > 0n) {
    for (const e of entries) {
      if (e.kind !== "broadcast" || FINISHED_BROADCAST.has(e.status) || refunded.has(e.id)) continue;
      const facts = await broadcast(e.id);
      if (facts === undefined) return undefined;
      if (!REFUNDED_STATUSES.has(facts.status)) continue;
      refundSun += facts.feeSun;
      unexplainedSun -= facts.feeSun;
      refunded.add(e.id);
    }
  }
  const inHistory = new Set(entries.filter((e) => e.kind === "broadcast").map((e) => e.id));
  return {
    chargedSun,
    refundSun,
    unexplainedSun,
    seen: entries.map(entryKey),
    // Entries that left the history (its 500 limit) are forgotten here too.
    refunded: [...refunded].filter((id) => inHistory.has(id)),
  };
}

/**
 * A state kept when the history was the chat's own, read against the account's history: entries the other
 * chats of the account placed before the last judged read are already in `lastSun` (as foreign charges then),
 * so they count as seen, and their refunds as counted; otherwise the first read after the upgrade would take
 * them for charges just made.
 */
export function adoptAccountHistory(state: AccountWatchState, entries: readonly HistoryEntry[]): AccountWatchState {
  if (state.scope === "account") return state;
  const before = entries.filter((e) => e.createdAtMs <= state.readAtMs);
  const seen = new Set([...state.seen, ...before.map(entryKey)]);
  const refunded = new Set([...state.refunded, ...before.filter((e) => e.kind === "broadcast" && REFUNDED_STATUSES.has(e.status)).map((e) => e.id)]);
  return { ...state, seen: [...seen], refunded: [...refunded], scope: "account" };
}
