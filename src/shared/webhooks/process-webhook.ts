import { extractEventIds, kindOfEvent, type EventKind } from "./extract-event-ids.js";
import { parseItemBody } from "./inbox-item.js";
import type { InboxItem, WebhookInboxDeps, WebhookNotice } from "./types.js";

export type ProcessWebhook = (item: InboxItem) => Promise<void>;

/**
 * Turns one persisted delivery into re-read requests. The event name (header
 * first) decides whether order or broadcast ids count; without one, a
 * broadcast id wins over an order id (a broadcast record also names the
 * energy order bought for it). Throws when `onEvent` fails so the inbox retries.
 */
export function createWebhookProcessor(deps: WebhookInboxDeps): ProcessWebhook {
  const log = deps.logger.child({ module: "webhooks" });
  const cooldownMs = deps.hintCooldownMs ?? 30_000;
  const perChatPerMinute = deps.hintsPerChatPerMinute ?? 30;
  const lastHint = new Map<string, number>();
  const chatHints = new Map<number, number[]>();

  /**
   * Checks and counts an unverified hint in one synchronous step, so hints
   * processed concurrently cannot all pass a check none has counted yet.
   * The returned function gives the slot back when the hint could not be
   * passed on (the retry must not find it spent).
   */
  function reserveHint(chatId: number, id: string, now: number): "cooldown" | "budget" | (() => void) {
    if (lastHint.size > 10_000) {
      for (const [k, at] of lastHint) if (now - at > cooldownMs) lastHint.delete(k);
    }
    if (chatHints.size > 10_000) {
      for (const [c, list] of chatHints) if (list.every((at) => now - at >= 60_000)) chatHints.delete(c);
    }
    const key = `${chatId}:${id}`;
    const at = lastHint.get(key);
    if (at !== undefined && now - at < cooldownMs) return "cooldown";
    // Sliding one-minute window of unverified hints passed on for the chat.
    const recent = (chatHints.get(chatId) ?? []).filter((t) => now - t < 60_000);
    chatHints.set(chatId, recent);
    if (recent.length >= perChatPerMinute) return "budget";
    recent.push(now);
    lastHint.set(key, now);
    return () => {
      if (lastHint.get(key) === now) {
        if (at === undefined) lastHint.delete(key);
        else lastHint.set(key, at);
      }
      const list = chatHints.get(chatId);
      const i = list?.lastIndexOf(now) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
    };
  }

  return async function processWebhook(item) {
    const parsed = parseItemBody(item);
    if (!parsed.ok) {
      // The route refuses such bodies; this one came from elsewhere (an old item, another writer).
      log.warn({ chatId: item.chatId, deliveryId: item.deliveryId }, "webhook body is not JSON within the depth limit; dropped");
      deps.metrics?.inc("webhooks_total", { outcome: "dropped" });
      return;
    }
    const ids = extractEventIds(parsed.payload);
    const event = item.event ?? ids.event;
    const kind: EventKind | undefined =
      kindOfEvent(event) ?? (ids.broadcastIds.length > 0 || ids.txIds.length > 0 ? "broadcast" : ids.orderIds.length > 0 ? "order" : undefined);
    const ctx = { chatId: item.chatId, deliveryId: item.deliveryId, event, verified: item.verified };

    const notices: WebhookNotice[] = [];
    const base = { chatId: item.chatId, event, deliveryId: item.deliveryId, verified: item.verified };
    if (kind === "order") {
      for (const id of ids.orderIds) notices.push({ ...base, kind, id });
    } else if (kind === "broadcast") {
      const txId = ids.txIds.length === 1 ? ids.txIds[0] : undefined;
      for (const id of ids.broadcastIds) notices.push({ ...base, kind, id, ...(txId ? { txId } : {}) });
      if (notices.length === 0 && deps.resolveTxId) {
        for (const tx of ids.txIds) {
          const id = await deps.resolveTxId(item.chatId, tx);
          if (id) notices.push({ ...base, kind, id, txId: tx });
        }
      }
    }
    if (notices.length === 0) {
      log.info(
        { ...ctx, found: { orders: ids.orderIds.length, broadcasts: ids.broadcastIds.length, txs: ids.txIds.length } },
        "webhook names no record we can re-read; dropped",
      );
      deps.metrics?.inc("webhooks_total", { outcome: "dropped" });
      return;
    }
    const now = Date.now();
    for (const notice of notices) {
      if (notice.verified) {
        await deps.onEvent(notice);
        continue;
      }
      // An unsigned hint cannot trigger a flood of re-reads for one record or one chat.
      const slot = reserveHint(notice.chatId, notice.id, now);
      if (slot === "cooldown") {
        log.debug({ ...ctx, id: notice.id }, "unverified hint within cooldown; skipped");
        continue;
      }
      if (slot === "budget") {
        log.warn({ ...ctx, id: notice.id }, "too many unverified hints for this chat; skipped");
        continue;
      }
      try {
        await deps.onEvent(notice);
      } catch (error) {
        slot();
        throw error;
      }
    }
    deps.metrics?.inc("webhooks_total", { outcome: "processed" });
  };
}
