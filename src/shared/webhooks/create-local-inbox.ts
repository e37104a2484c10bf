import { createHash } from "node:crypto";
import { groupCalls } from "../../platform/group-calls.js";
import { createDueQueue } from "../../platform/jobs/due-queue.js";
import { deleteMany, getMany, setMany } from "../../platform/store/batch.js";
import type { KeyValueEntry } from "../../platform/store/types.js";
import { readInboxItem, signedKey, signedTtlMs } from "./inbox-item.js";
import { createWebhookProcessor } from "./process-webhook.js";
import type { AcceptResult, InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;
/** Processing is service reads and chat messages: a few at a time keep the acknowledgements fast. */
export const DEFAULT_CONCURRENCY = 4;
/**
 * Deliveries held in memory (queued, being processed, waiting for a retry or
 * for their removal): about 3 s of a 3,000/s burst. Past it a delivery is
 * still stored and acknowledged, and waits in the store until there is room.
 */
export const DEFAULT_MAX_IN_MEMORY = 10_000;
/**
 * Deliveries stored and not yet done before the sender is told to retry (it
 * retries for hours): a bound on the store's growth, far past any burst (a
 * few hundred MB of bodies), not on memory.
 */
export const DEFAULT_MAX_PENDING = 1_000_000;
/** Signed-content marks of deliveries left in the store at start, written this many at a time. */
const MARK_BATCH = 500;
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
 * cause a second re-read (harmless), never a lost event.
 *
 * Memory is bounded by `maxInMemory` deliveries; a burst past it is stored
 * and acknowledged like any other, and waits in the store ("spilled"): when
 * the deliveries in memory fall to half the bound, the store is scanned for
 * the ones not yet held. A spilled delivery's signed content is marked in the
 * store at once (memory knows only those it holds), so a replay of it is a
 * duplicate as before. Only with `maxPending` deliveries stored and not yet
 * done does `accept` answer "full" without storing: the sender retries later.
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
  const maxInMemory = Math.max(1, deps.maxInMemory ?? DEFAULT_MAX_IN_MEMORY);
  /** Stored, not yet finished: in memory (`processing`) or spilled, waiting in the store. */
  let pending = 0;
  /** Counts spills, so a scan that ran while deliveries were spilled does not take the store for drained. */
  let spillEpoch = 0;
  let spilling = false;
  let refilling = false;
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
  /**
   * Keys held in memory: queued, being processed, waiting for a retry timer
   * or for their removal. At most `maxInMemory`, give or take one group of accepts.
   */
  const processing = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let running = false;
  /** Deliveries waiting for a retry, by key, their times on one queue: an outage that fails thousands costs no timer each. */
  const retrying = new Map<string, StoredItem>();
  const retries = createDueQueue<string>({
    name: "webhook retries",
    logger: log,
    run: (key) => {
      const stored = retrying.get(key);
      retrying.delete(key);
      processing.delete(key);
      if (stored) run(key, stored);
      return Promise.resolve(undefined);
    },
  });
  retries.start();

  /** Queues a stored item for a worker; each key is queued once. */
  function run(key: string, stored: StoredItem): void {
    if (!running || processing.has(key)) return;
    processing.add(key);
    enqueue(key, stored);
  }

  /** Queues an item whose key `processing` already holds. */
  function enqueue(key: string, stored: StoredItem): void {
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
    refill();
  }

  /** Once memory holds half its bound or less while deliveries wait in the store, takes the next ones from it. */
  function refill(): void {
    if (!running || refilling || pending <= processing.size || processing.size > maxInMemory / 2) return;
    refilling = true;
    const p = loadSpilled()
      .catch((error: unknown) => log.warn({ err: error }, "could not read spilled webhooks from the store; will try again"))
      .finally(() => {
        refilling = false;
        inFlight.delete(p);
      });
    inFlight.add(p);
  }

  /**
   * One pass over the stored keys (keys alone, then the values of those not
   * held) until memory is full again. A pass that reached the end while
   * nothing was spilled has seen every stored delivery: `pending` is then
   * exactly what memory holds.
   */
  async function loadSpilled(): Promise<void> {
    const epoch = spillEpoch;
    let complete = true;
    for await (const page of items.keyPages()) {
      if (!running) return;
      const room = maxInMemory - processing.size;
      if (room <= 0) {
        complete = false;
        break;
      }
      const notHeld = page.filter((key) => !processing.has(key));
      // More than fits: the pass does not see the rest, so it cannot tell the store drained.
      if (notHeld.length > room) complete = false;
      const keys = notHeld.slice(0, room);
      if (keys.length === 0) continue;
      const values = await getMany(items, keys);
      for (const [i, key] of keys.entries()) {
        // Removed meanwhile (done), or taken by an accept of the same moment.
        if (values[i] === undefined || processing.has(key)) continue;
        const stored = readStoredItem(values[i]);
        if (stored === undefined) {
          log.warn({ key }, "unreadable webhook inbox item discarded");
          await items.delete(key);
          pending = Math.max(0, pending - 1);
          continue;
        }
        const signed = signedKeyOf(stored.item);
        if (signed !== undefined) pendingSigned.add(signed);
        run(key, stored);
      }
    }
    if (complete && running && epoch === spillEpoch) {
      pending = processing.size;
      if (spilling) log.info({ inMemory: processing.size }, "webhook inbox: every spilled delivery is back in memory");
      spilling = false;
    }
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
    retrying.set(key, stored);
    retries.at(key, Math.min(60_000, baseDelayMs * 2 ** (stored.attempts - 1)));
  }

  /** The items stay stored: the next start retries them. */
  function cancelRetries(): void {
    for (const key of retrying.keys()) {
      retries.cancel(key);
      processing.delete(key);
    }
    retrying.clear();
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
    const held: [string, StoredItem][] = [];
    const heldSigned: string[] = [];
    /** Signed-content marks of the deliveries that will wait in the store: memory will not know them. */
    const spilledMarks: KeyValueEntry[] = [];
    const taken = new Set<string>();
    const now = Date.now();
    const results = batch.map(({ key, signed, item }, i): AcceptResult => {
      if (marks[i] !== undefined || present[i] !== undefined) return "duplicate";
      if (signed !== undefined && (signedMarks.get(signed) !== undefined || pendingSigned.has(signed) || taken.has(signed))) return "duplicate";
      if (pending + writes.length >= maxPending) return "full";
      if (signed !== undefined) taken.add(signed);
      const stored: StoredItem = { v: 2, item, attempts: 0 };
      writes.push({ key, value: stored });
      if (processing.size + held.length < maxInMemory) {
        held.push([key, stored]);
        if (signed !== undefined) heldSigned.push(signed);
      } else if (item.signed && signed !== undefined && item.signed.untilMs > now) {
        spilledMarks.push({ key: signed, value: item.receivedAt, ttlMs: signedTtlMs(item.signed, now) });
      }
      return "accepted";
    });
    await setMany(items, writes);
    for (const signed of heldSigned) pendingSigned.add(signed);
    pending += writes.length;
    if (writes.length > 0) deps.metrics?.inc("webhooks_total", { outcome: "accepted" }, writes.length);
    if (held.length < writes.length) {
      spillEpoch += 1;
      if (!spilling) log.info({ inMemory: processing.size + held.length }, "webhook inbox: memory is full; further deliveries wait in the store");
      spilling = true;
    }
    if (running) {
      // Held at once, so the next group counts them; queued after the callers have answered: the HTTP responses must not wait for the work.
      // A scan for spilled deliveries may have taken one already, between the write and here.
      const fresh = held.filter(([key]) => !processing.has(key));
      for (const [key] of fresh) processing.add(key);
      setImmediate(() => {
        for (const [key, stored] of fresh) {
          if (running) enqueue(key, stored);
          else processing.delete(key);
        }
      });
    }
    // After the items: a mark without its item would make a lost delivery look seen.
    await setMany(seen, spilledMarks);
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
      const now = Date.now();
      let marks: KeyValueEntry[] = [];
      for await (const [key, value] of items.entries()) {
        if (processing.has(key)) continue;
        const stored = readStoredItem(value);
        if (stored === undefined) {
          log.warn({ key }, "unreadable webhook inbox item discarded");
          await items.delete(key);
          continue;
        }
        pending += 1;
        const { item } = stored;
        const signed = signedKeyOf(item);
        if (processing.size < maxInMemory) {
          if (signed !== undefined) pendingSigned.add(signed);
          run(key, stored);
        } else if (item.signed && signed !== undefined && item.signed.untilMs > now) {
          // Left in the store: its replay is told apart by a mark, as a spilled delivery's is.
          marks.push({ key: signed, value: item.receivedAt, ttlMs: signedTtlMs(item.signed, now) });
          if (marks.length >= MARK_BATCH) {
            await setMany(seen, marks);
            marks = [];
          }
        }
      }
      await setMany(seen, marks);
      if (pending > processing.size) {
        spilling = true;
        log.info({ inMemory: processing.size, stored: pending }, "webhook inbox: more deliveries stored than memory holds; the rest wait in the store");
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
