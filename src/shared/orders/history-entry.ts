import { z } from "zod";

/** One order or broadcast of the history, with the last status the bot saw. */
export const historyEntrySchema = z.object({
  kind: z.enum(["order", "broadcast"]),
  id: z.string(),
  /**
   * The chat the entry was placed (or first seen) from: the history is the account's, shared by every
   * chat linked to it. Entries of the per-chat era get the chat whose history they were in.
   */
  chatId: z.number().int().optional(),
  /** Not placed through the bot: first seen from the service (a webhook or a read), e.g. an order made in the dashboard. */
  madeElsewhere: z.literal(true).optional(),
  /** order: bought by this keep plan (its id): shown on the plan's card and in its daily summary, not on a card of its own. */
  renewalOf: z.string().optional(),
  createdAtMs: z.number().int(),
  status: z.string(),
  /** order: receiver; broadcast: recipient (when known). */
  address: z.string().optional(),
  /** order: energy amount. */
  amount: z.number().int().optional(),
  durationSec: z.number().int().optional(),
  /**
   * order: when the bot first saw it `fulfilled` (webhook or poll). The service's record has no
   * fulfilment time, so this is the delegation's start as far as the bot can know (docs/orders.md).
   */
  fulfilledAtMs: z.number().int().optional(),
  totalCostSun: z.number().int().optional(),
  /** broadcast: usdt | trx | trc20 | system | contract (as read locally). */
  txKind: z.string().optional(),
  amountAtomic: z.string().optional(),
  amountSun: z.string().optional(),
  /** broadcast: the contract's type (and the contract called or configured), as read locally. */
  contractType: z.string().optional(),
  contractAddress: z.string().optional(),
  /** broadcast: what the summary showed beyond kind and amount (staking resource, votes, TRC10 token…), as read locally. */
  details: z
    .object({
      resource: z.string().exactOptional(),
      assetName: z.string().exactOptional(),
      votes: z.array(z.object({ address: z.string(), count: z.string() })).exactOptional(),
      lock: z.boolean().exactOptional(),
      callValueSun: z.string().exactOptional(),
    })
    .optional(),
  /** broadcast: the signed transaction's id (finds the broadcast behind a duplicate_tx). */
  txId: z.string().optional(),
  /**
   * broadcast: `totalCostSun` is the bot's highest estimate, recorded at acceptance (the 202 carries
   * no fee); the first read of the record replaces it with what the service charged.
   */
  costEstimated: z.boolean().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

const REFUNDED_BROADCAST = new Set(["failed", "expired"]);

/**
 * The sun an entry took from the balance: an order its cost; a broadcast its fee (estimated until read),
 * or nothing once it ended `failed`/`expired`, since the service refunds those.
 */
export function chargeSunOf(entry: HistoryEntry): bigint {
  if (entry.totalCostSun === undefined || hasRefund(entry)) return 0n;
  return BigInt(entry.totalCostSun);
}

/**
 * Whether the service gave the entry's money back: a broadcast that ended `failed`/`expired` with a fee
 * recorded (the fee is debited at acceptance and refunded by a separate entry, service-api.md section 3).
 * The statement's refund lines and the history's Refunds filter are both this.
 */
export function hasRefund(entry: HistoryEntry): boolean {
  return entry.kind === "broadcast" && REFUNDED_BROADCAST.has(entry.status) && (entry.totalCostSun ?? 0) !== 0;
}

/** Newest first, every entry: an added entry replaces the one of the same id in its place, the rest come in by time. */
export function mergedEntries(current: readonly HistoryEntry[], added: readonly HistoryEntry[]): HistoryEntry[] {
  const old = [...current];
  const fresh: HistoryEntry[] = [];
  for (const entry of added) {
    const at = old.findIndex((e) => e.kind === entry.kind && e.id === entry.id);
    if (at >= 0) old[at] = entry;
    else fresh.push(entry);
  }
  // Stable sort: what was added last comes first among entries of the same millisecond.
  return [...fresh, ...old].sort((a, b) => b.createdAtMs - a.createdAtMs);
}
