import type { Logger } from "pino";
import type { OrderHistory } from "../orders/order-history.js";
import type { Announce } from "./announcer.js";
import { isBroadcastFinished, isOrderFinished } from "../../platform/service/schemas.js";
import type { TrackedItem, TrackedRecord } from "./tracked-item.js";

export interface PeekDeps {
  getApiKey: (chatId: number) => Promise<string | undefined>;
  read: (item: TrackedItem, apiKey: string) => Promise<TrackedRecord>;
  /** The tracker's exactly-once announcement (shared memory and claim). */
  announce: Announce;
  history: OrderHistory | undefined;
  logger: Logger;
  now: () => number;
  cardGraceMs: number;
}

/**
 * A webhook's re-read of an item another live process polls: a change is
 * announced here at once (the holder then finds it announced and only
 * catches its own copy up); the item, its backoff and its lease stay the holder's.
 */
export async function peekForWebhook(item: TrackedItem, deps: PeekDeps): Promise<void> {
  // The holder is waiting for the card its bot draws; that card announces the first status.
  if (item.pendingCard && item.startedAtMs + deps.cardGraceMs > deps.now()) return;
  const apiKey = await deps.getApiKey(item.chatId);
  if (apiKey === undefined) return;
  let tracked: TrackedRecord;
  try {
    tracked = await deps.read(item, apiKey);
  } catch (error) {
    deps.logger.debug({ err: error, id: item.id }, "re-read for a webhook failed; the holder reads it on its turn");
    return;
  }
  const status = tracked.record.status;
  if (status === item.status) return;
  const final = tracked.kind === "order" ? isOrderFinished(status) : isBroadcastFinished(status);
  const seenAtMs = deps.now();
  // Written before the announcement, which may wait (a claim elsewhere): what reads the history (a keep plan's
  // next order) learns of a delivery as soon as it is seen. A first sight (no status yet) joins the history
  // through the holder, which adds it once.
  if (item.status !== undefined)
    await deps.history?.setStatus(item.chatId, item.kind, item.id, status, seenAtMs, tracked.kind === "broadcast" ? tracked.record.totalCostSun : undefined);
  await deps.announce(item, tracked, final, seenAtMs);
}
