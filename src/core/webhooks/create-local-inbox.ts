import { createHash } from "node:crypto";
import { readInboxItem } from "./inbox-item.js";
import { createWebhookProcessor } from "./process-webhook.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;
/** Processing is service reads and chat messages: a few at a time keep the acknowledgements fast. */
export const DEFAULT_CONCURRENCY = 4;
/** About 3 s of a 3,000/s burst; past it the sender is told to retry (it retries for hours). */
export const DEFAULT_MAX_PENDING = 10_000;

interface StoredItem {
  /** 2: `item.body` is the raw text; 1 (read only): `item.payload` held the parsed JSON. */
  v: 2;
  item: InboxItem;
  attempts: number;
}

/** Delivery ids are chosen by the sender; hashing keeps store keys short and free of odd characters. */
export function inboxKey(chatId: number, deliveryId: string): string {
  return `${chatId}.${createHash("sha256").update(deliveryId).digest("base64url").slice(0, 32)}`;
}

/** A stored item of either version, as v2; undefined when it is neither. */
function readStoredItem(value: unknown): StoredItem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { v, item, attempts } = value as Record<string, unknown>;
  if (v !== 1 && v !== 2) return undefined;
  const read = readInboxItem(item);
  if (read === undefined) return undefined;
  return { v: 2, item: read, attempts: typeof attempts === "number" && Number.isSafeInteger(attempts) ? attempts : 0 };
}

/**
 * The webhook inbox over the store. `accept` writes the delivery before the
 * HTTP answer, in one store write; while stored, the item itself makes a
 * redelivery a duplicate. Processing runs after, in a fixed number of
 * workers: once done, the dedup marker is written before the item is
 * removed, so a crash in between can only cause a second re-read (harmless),
 * never a lost event. With `maxPending` deliveries stored and not yet done,
 * `accept` answers "full" without storing: the sender retries later.
 */
export function createLocalInbox(deps: WebhookInboxDeps): WebhookInbox {
  const name = deps.name ?? "webhook";
  const items = deps.store.namespace(`${name}-inbox`);
  const seen = deps.store.namespace(`${name}-deliveries`);
  const dedupTtl = deps.dedupTtlMs ?? DAY_MS;
  const maxAttempts = deps.maxAttempts ?? 8;
  const baseDelayMs = deps.baseDelayMs ?? 1_000;
  const processWebhook = createWebhookProcessor(deps);
  const log = deps.logger.child({ module: "webhook-inbox" });
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const maxPending = deps.maxPending ?? DEFAULT_MAX_PENDING;
  /** Stored, not yet finished: waiting for a worker, being processed or waiting for a retry. */
  let pending = 0;
  const waiting: [string, StoredItem][] = [];
  let busy = 0;
  /** Keys being accepted right now (the store check and write are not atomic). */
  const accepting = new Set<string>();
  /** Keys being processed or waiting for a retry timer. */
  const processing = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let running = false;

  /** Queues a stored item for a worker; each key is queued once. */
  function run(key: string, stored: StoredItem): void {
    if (!running || processing.has(key)) return;
    processing.add(key);
    waiting.push([key, stored]);
    pump();
  }

  function pump(): void {
    while (running && busy < concurrency) {
      const next = waiting.shift();
      if (next === undefined) return;
      busy += 1;
      const p = work(...next).finally(() => {
        busy -= 1;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  }

  function finish(key: string): void {
    processing.delete(key);
    pending = Math.max(0, pending - 1);
  }

  async function work(key: string, stored: StoredItem): Promise<void> {
    try {
      await processWebhook(stored.item);
      await remove(key, stored);
      finish(key);
    } catch (error) {
      stored.attempts += 1;
      if (stored.attempts >= maxAttempts) {
        log.error({ err: error, chatId: stored.item.chatId, deliveryId: stored.item.deliveryId }, "webhook processing failed; giving up");
        deps.metrics?.inc("webhooks_total", { outcome: "failed" });
        await remove(key, stored).catch((err: unknown) => log.error({ err, deliveryId: stored.item.deliveryId }, "could not remove a failed webhook"));
        finish(key);
        return;
      }
      log.warn({ err: error, chatId: stored.item.chatId, attempts: stored.attempts }, "webhook processing failed; will retry");
      // Only the attempt count is lost if this fails: the item itself is already stored.
      await items.set(key, stored).catch((err: unknown) => log.warn({ err, deliveryId: stored.item.deliveryId }, "could not save the retry count"));
      const delay = Math.min(60_000, baseDelayMs * 2 ** (stored.attempts - 1));
      const timer = setTimeout(() => {
        timers.delete(timer);
        processing.delete(key);
        run(key, stored);
      }, delay);
      timers.add(timer);
    }
  }

  /** Marker first: between the two writes the delivery is still a duplicate. */
  async function remove(key: string, stored: StoredItem): Promise<void> {
    await seen.set(key, stored.item.receivedAt, dedupTtl);
    await items.delete(key);
  }

  return {
    async accept(item) {
      const key = inboxKey(item.chatId, item.deliveryId);
      if (accepting.has(key)) return "duplicate";
      accepting.add(key);
      try {
        if ((await seen.get(key)) !== undefined || (await items.get(key)) !== undefined) return "duplicate";
        if (pending >= maxPending) return "full";
        const stored: StoredItem = { v: 2, item, attempts: 0 };
        await items.set(key, stored);
        pending += 1;
        deps.metrics?.inc("webhooks_total", { outcome: "accepted" });
        // After the caller has answered: the HTTP response must not wait for the work.
        setImmediate(() => run(key, stored));
        return "accepted";
      } finally {
        accepting.delete(key);
      }
    },
    async start() {
      if (running) return;
      running = true;
      pending = 0;
      for await (const [key, value] of items.entries()) {
        if (processing.has(key)) continue;
        const stored = readStoredItem(value);
        if (stored === undefined) {
          log.warn({ key }, "unreadable webhook inbox item discarded");
          await items.delete(key);
          continue;
        }
        pending += 1;
        run(key, stored);
      }
    },
    async stop() {
      running = false;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // Still stored: the next start picks them up.
      for (const [key] of waiting.splice(0)) processing.delete(key);
      await Promise.allSettled([...inFlight]);
    },
    async size() {
      let n = 0;
      for await (const _ of items.entries()) n += 1;
      return n;
    },
  };
}
