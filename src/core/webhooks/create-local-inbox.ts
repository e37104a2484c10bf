import { createHash } from "node:crypto";
import { groupCalls } from "../group-calls.js";
import { deleteMany, getMany, setMany } from "../store/batch.js";
import type { KeyValueEntry } from "../store/types.js";
import { readInboxItem, signedKey, signedTtlMs } from "./inbox-item.js";
import { createWebhookProcessor } from "./process-webhook.js";
import type { AcceptResult, InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;
/** Processing is service reads and chat messages: a few at a time keep the acknowledgements fast. */
export const DEFAULT_CONCURRENCY = 4;
/** About 3 s of a 3,000/s burst; past it the sender is told to retry (it retries for hours). */
export const DEFAULT_MAX_PENDING = 10_000;
/**
 * Deliveries a worker takes at once, and the most one grouped removal writes:
 * one synchronous transaction each, so a backlog drained by every worker at
 * once is not one long stall of the event loop. One group is written per turn
 * of the loop, which bounds how fast removals go on a busy loop: a smaller
 * group let done deliveries pile up until the inbox answered "full".
 */
const MAX_BATCH = 100;
/**
 * How long a removal waits for others. Nothing waits on it: until removed, the
 * stored item keeps a redelivery a duplicate, and a crash before it only
 * repeats a re-read. On a busy loop each commit costs as much as several
 * deliveries' other store work, so a few deliveries per commit was most of
 * processing's cost.
 */
const DEFAULT_REMOVAL_LINGER_MS = 25;

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
 * HTTP answer; while stored, the item itself makes a redelivery a duplicate.
 * Accepts arriving together are grouped: one read of the dedup markers, one
 * of the items, and one write (one SQLite transaction) for the whole group,
 * each accept resolving once its group is committed. Processing runs after,
 * in a fixed number of workers: once done, the dedup markers are written
 * (grouped too) before the items are removed, so a crash in between can only
 * cause a second re-read (harmless), never a lost event. With `maxPending`
 * deliveries stored and not yet done, `accept` answers "full" without
 * storing: the sender retries later.
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
  /** Keys being accepted right now (the store check and write are not atomic); signed-content keys too. */
  const accepting = new Set<string>();
  /**
   * Signed-content keys of the deliveries stored and not yet done. Their
   * marks are written with the delivery ids' (one write, after processing);
   * until then this is what makes a replay under a new delivery id a
   * duplicate. One process owns a local inbox, and `start` fills it from
   * the stored items.
   */
  const pendingSigned = new Set<string>();
  const signedKeyOf = (item: InboxItem): string | undefined => (item.signed ? signedKey(item.chatId, item.signed) : undefined);
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

  /** Each worker takes a share of what waits (at most MAX_BATCH) and processes it in order. */
  function pump(): void {
    while (running && busy < concurrency && waiting.length > 0) {
      const take = Math.min(MAX_BATCH, Math.ceil(waiting.length / (concurrency - busy)));
      busy += 1;
      const p = work(waiting.splice(0, take)).finally(() => {
        busy -= 1;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  }

  function finish(key: string, item: InboxItem): void {
    const signed = signedKeyOf(item);
    if (signed !== undefined) pendingSigned.delete(signed);
    processing.delete(key);
    pending = Math.max(0, pending - 1);
  }

  /** Processes a batch one delivery at a time, yielding between them; each done one is removed with others', without holding the worker. */
  async function work(batch: [string, StoredItem][]): Promise<void> {
    for (const [i, [key, stored]] of batch.entries()) {
      // A turn of the loop between deliveries: requests waiting to be answered never queue behind a whole batch.
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (!running) {
        // Stopping: the rest stay stored for the next start.
        for (const [rest] of batch.slice(i)) processing.delete(rest);
        return;
      }
      try {
        await processWebhook(stored.item);
        remove(key, stored);
      } catch (error) {
        await failed(key, stored, error);
      }
    }
  }

  /** The delivery counts as pending until its removal is written; one whose removal failed is processed again. */
  function remove(key: string, stored: StoredItem): void {
    const p = removals
      .call([key, stored])
      .then(
        () => finish(key, stored.item),
        (error: unknown) => failed(key, stored, error),
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  async function failed(key: string, stored: StoredItem, error: unknown): Promise<void> {
    stored.attempts += 1;
    if (stored.attempts >= maxAttempts) {
      log.error({ err: error, chatId: stored.item.chatId, deliveryId: stored.item.deliveryId }, "webhook processing failed; giving up");
      deps.metrics?.inc("webhooks_total", { outcome: "failed" });
      await removals.call([key, stored]).catch((err: unknown) => log.error({ err, deliveryId: stored.item.deliveryId }, "could not remove a failed webhook"));
      finish(key, stored.item);
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

  /** The items stay stored: the next start retries them. */
  function cancelRetries(): void {
    for (const t of timers) clearTimeout(t);
    timers.clear();
  }

  /**
   * Markers first: between the two writes the deliveries are still duplicates.
   * Removals finishing within `removalLingerMs` are grouped across workers, at
   * most MAX_BATCH deliveries a group: a write pair per worker's batch,
   * or per few deliveries, made the removals most of a delivery's store cost.
   */
  const removals = groupCalls(
    async (done: [string, StoredItem][]): Promise<undefined[]> => {
      const now = Date.now();
      const marks: KeyValueEntry[] = [];
      for (const [key, { item }] of done) {
        marks.push({ key, value: item.receivedAt, ttlMs: dedupTtl });
        // Signed content is marked only while its signature is accepted: a replay after that is refused as stale anyway.
        if (item.signed && item.signed.untilMs > now)
          marks.push({ key: signedKey(item.chatId, item.signed), value: item.receivedAt, ttlMs: signedTtlMs(item.signed, now) });
      }
      await setMany(seen, marks);
      await deleteMany(
        items,
        done.map(([key]) => key),
      );
      return done.map(() => undefined);
    },
    { maxBatch: MAX_BATCH, lingerMs: deps.removalLingerMs ?? DEFAULT_REMOVAL_LINGER_MS },
  );

  const accepts = groupCalls(async (batch: { key: string; signed: string | undefined; item: InboxItem }[]): Promise<AcceptResult[]> => {
    const keys = batch.map((b) => b.key);
    // The signed-content marks are read with the delivery ids' marks: the same read.
    const signedKeys = batch.flatMap((b) => b.signed ?? []);
    const [marks, present] = await Promise.all([getMany(seen, [...keys, ...signedKeys]), getMany(items, keys)]);
    const signedMarks = new Map(signedKeys.map((k, i) => [k, marks[keys.length + i]]));
    const writes: KeyValueEntry[] = [];
    const taken = new Set<string>();
    const results = batch.map(({ key, signed, item }, i): AcceptResult => {
      if (marks[i] !== undefined || present[i] !== undefined) return "duplicate";
      if (signed !== undefined && (signedMarks.get(signed) !== undefined || pendingSigned.has(signed) || taken.has(signed))) return "duplicate";
      if (pending + writes.length >= maxPending) return "full";
      if (signed !== undefined) taken.add(signed);
      writes.push({ key, value: { v: 2, item, attempts: 0 } satisfies StoredItem });
      return "accepted";
    });
    await setMany(items, writes);
    for (const signed of taken) pendingSigned.add(signed);
    pending += writes.length;
    if (writes.length > 0) deps.metrics?.inc("webhooks_total", { outcome: "accepted" }, writes.length);
    // After the callers have answered: the HTTP responses must not wait for the work.
    setImmediate(() => {
      for (const { key, value } of writes) run(key, value as StoredItem);
    });
    return results;
  });

  return {
    async accept(item) {
      const key = inboxKey(item.chatId, item.deliveryId);
      const signed = signedKeyOf(item);
      if (accepting.has(key) || (signed !== undefined && accepting.has(signed))) return "duplicate";
      accepting.add(key);
      if (signed !== undefined) accepting.add(signed);
      try {
        return await accepts.call({ key, signed, item });
      } finally {
        accepting.delete(key);
        if (signed !== undefined) accepting.delete(signed);
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
        const signed = signedKeyOf(stored.item);
        if (signed !== undefined) pendingSigned.add(signed);
        run(key, stored);
      }
    },
    async stop() {
      running = false;
      cancelRetries();
      // Still stored: the next start picks them up.
      for (const [key] of waiting.splice(0)) processing.delete(key);
      // Workers still running add removals as they finish; waiting for the group's idle flushes them without their linger.
      while (inFlight.size > 0) await Promise.all([removals.idle(), Promise.allSettled([...inFlight])]);
      await accepts.idle();
      // A failure while stopping may have set a retry: the next start retries it.
      cancelRetries();
    },
    async size() {
      let n = 0;
      for await (const _ of items.entries()) n += 1;
      return n;
    },
  };
}
