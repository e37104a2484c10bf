import type { Logger } from "pino";
import { z } from "zod";
import { isOrderFinished } from "../../platform/service/schemas.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import type { HistoryEntry, OrderHistory } from "./order-history.js";
import type { PlacedOrder } from "./quote.js";

/**
 * A batch (one quote placed as several orders) shown to the chat as one card.
 * Only ids are persisted; the counts are always derived from the history the
 * tracker keeps current, so a restart resumes from what is true, not from a
 * counter that may have missed a change.
 */

const batchSchema = z.object({
  batchId: z.string(),
  chatId: z.number().int(),
  orderIds: z.array(z.string()).min(2),
  /** The placed quote's message: it becomes the batch's card. */
  cardMessageId: z.number().int().optional(),
  locale: z.string().optional(),
  /** Orders already fulfilled when the card was first drawn: an edit to this count would change nothing. */
  placedFulfilled: z.number().int().default(0),
});
export type Batch = z.infer<typeof batchSchema>;
export type NewBatch = z.input<typeof batchSchema>;

const memberSchema = z.object({ batchId: z.string() });

/** One order of a batch as the result CSV and the card's totals see it. */
export interface BatchLine {
  line: number;
  orderId: string;
  receiver: string;
  energy: number;
  durationSec: number;
  status: string;
  costSun: bigint;
}

export interface BatchProgress {
  total: number;
  fulfilled: number;
  inProgress: number;
  energy: number;
  costSun: bigint;
  /** Every order reached a finished status. */
  done: boolean;
  lines: BatchLine[];
}

export interface BatchStore {
  register(batch: NewBatch): Promise<void>;
  get(batchId: string): Promise<Batch | undefined>;
  /** The batch an order belongs to, if any. */
  batchOf(chatId: number, orderId: string): Promise<Batch | undefined>;
}

/** Batches live a week: far past the tracking horizon of their orders. */
const BATCH_TTL_MS = 7 * 24 * 60 * 60_000;

export function createBatchStore(deps: { store: StoreBackend; logger: Logger }): BatchStore {
  const batches = createRecordStore({ kv: deps.store.namespace("batches"), schema: batchSchema, version: 1, logger: deps.logger, name: "batches" });
  const members = createRecordStore({
    kv: deps.store.namespace("batch-members"),
    schema: memberSchema,
    version: 1,
    logger: deps.logger,
    name: "batch-members",
  });
  const memberKey = (chatId: number, orderId: string) => `${chatId}:${orderId}`;
  return {
    async register(input) {
      const batch = batchSchema.parse(input);
      // The batch first: a member pointing at nothing would hide an order from both the batch and the single-order path.
      await batches.set(batch.batchId, batch, BATCH_TTL_MS);
      for (const orderId of batch.orderIds) await members.set(memberKey(batch.chatId, orderId), { batchId: batch.batchId }, BATCH_TTL_MS);
    },
    get: (batchId) => batches.get(batchId),
    async batchOf(chatId, orderId) {
      const member = await members.get(memberKey(chatId, orderId));
      const batch = member === undefined ? undefined : await batches.get(member.batchId);
      return batch?.chatId === chatId ? batch : undefined;
    },
  };
}

/**
 * The batch as the history knows it, with `announced` (statuses by order id the
 * tracker has announced, written to the history only after) taking precedence.
 */
export async function readBatchProgress(
  history: Pick<OrderHistory, "getMany">,
  batch: Batch,
  announced: ReadonlyMap<string, string> = new Map(),
): Promise<BatchProgress> {
  // Read on every order's end: one read per chunk keeps a 100-order batch from re-reading its chunks 100 times each.
  const entries = await history.getMany(batch.chatId, "order", batch.orderIds);
  return progressOf(batch.orderIds.map((orderId, i) => lineOf(i + 1, orderId, entries[i], announced.get(orderId))));
}

function lineOf(line: number, orderId: string, entry: HistoryEntry | undefined, announcedStatus: string | undefined): BatchLine {
  const status = announcedStatus ?? entry?.status ?? "unknown";
  return {
    line,
    orderId,
    receiver: entry?.address ?? "",
    energy: entry?.amount ?? 0,
    durationSec: entry?.durationSec ?? 0,
    status,
    costSun: BigInt(entry?.totalCostSun ?? 0),
  };
}

/** A batch as the service's acceptance describes it, before any tracking. */
export function placedBatchProgress(orders: readonly PlacedOrder[]): BatchProgress {
  return progressOf(
    orders.map((o, i) => ({
      line: i + 1,
      orderId: o.orderId,
      receiver: o.receiver,
      energy: o.resourceAmount,
      durationSec: o.durationSec,
      status: o.status,
      costSun: BigInt(o.totalCostSun),
    })),
  );
}

function progressOf(lines: BatchLine[]): BatchProgress {
  const fulfilled = lines.filter((l) => isOrderFinished(l.status)).length;
  return {
    total: lines.length,
    fulfilled,
    inProgress: lines.length - fulfilled,
    energy: lines.reduce((sum, l) => sum + l.energy, 0),
    costSun: lines.reduce((sum, l) => sum + l.costSun, 0n),
    done: fulfilled === lines.length,
    lines,
  };
}
