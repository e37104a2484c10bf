import type { OrderHistory } from "../orders/order-history.js";
import { historyEntryOf, type TrackedItem, type TrackedRecord } from "./tracked-item.js";

/**
 * Writes a status the tracker just saw into the chat's history, before it is announced: what reads
 * the history (a keep plan's next order, a delegation's end) must not wait for the announcement,
 * which may wait itself (a claim held elsewhere, a slow push queue). Written again when an
 * announcement is retried: the same status, and an order's first `fulfilledAtMs` stays.
 */
export async function recordStatus(history: OrderHistory | undefined, item: TrackedItem, tracked: TrackedRecord, seenAtMs: number): Promise<void> {
  if (!history) return;
  // First sight of a record made elsewhere: it joins the chat's history (once, if its announcement is retried).
  if (item.origin === "hint" && item.status === undefined && !(await history.get(item.chatId, item.kind, item.id))) {
    await history.add(item.chatId, [historyEntryOf(tracked, seenAtMs)]);
    return;
  }
  // A broadcast's fee is known from its record only (the 202 carries none): it replaces the estimate.
  await history.setStatus(
    item.chatId,
    item.kind,
    item.id,
    tracked.record.status,
    seenAtMs,
    tracked.kind === "broadcast" ? tracked.record.totalCostSun : undefined,
  );
}
