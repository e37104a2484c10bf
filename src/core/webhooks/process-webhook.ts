import { extractEventIds, kindOfEvent, type EventKind } from "./extract-event-ids.js";
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

  function coolingDown(key: string, now: number): boolean {
    if (lastHint.size > 10_000) {
      for (const [k, at] of lastHint) if (now - at > cooldownMs) lastHint.delete(k);
    }
    const at = lastHint.get(key);
    return at !== undefined && now - at < cooldownMs;
  }

  /** Sliding one-minute window of unverified hints passed on for the chat. */
  function overBudget(chatId: number, now: number): boolean {
    if (chatHints.size > 10_000) {
      for (const [id, list] of chatHints) if (list.every((at) => now - at >= 60_000)) chatHints.delete(id);
    }
    const recent = (chatHints.get(chatId) ?? []).filter((at) => now - at < 60_000);
    chatHints.set(chatId, recent);
    return recent.length >= perChatPerMinute;
  }

  return async function processWebhook(item) {
    const ids = extractEventIds(item.payload);
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
      log.info({ ...ctx, found: { orders: ids.orderIds.length, broadcasts: ids.broadcastIds.length, txs: ids.txIds.length } }, "webhook names no record we can re-read; dropped");
      deps.metrics?.inc("webhooks_total", { outcome: "dropped" });
      return;
    }
    const now = Date.now();
    for (const notice of notices) {
      // An unsigned hint cannot trigger a flood of re-reads for one record.
      if (!notice.verified && coolingDown(`${notice.chatId}:${notice.id}`, now)) {
        log.debug({ ...ctx, id: notice.id }, "unverified hint within cooldown; skipped");
        continue;
      }
      if (!notice.verified && overBudget(notice.chatId, now)) {
        log.warn({ ...ctx, id: notice.id }, "too many unverified hints for this chat; skipped");
        continue;
      }
      await deps.onEvent(notice);
      if (!notice.verified) {
        lastHint.set(`${notice.chatId}:${notice.id}`, now);
        chatHints.get(notice.chatId)?.push(now);
      }
    }
    deps.metrics?.inc("webhooks_total", { outcome: "processed" });
  };
}
