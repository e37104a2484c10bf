import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { KeyValue, StoreBackend } from "../../../src/platform/store/types.js";
import { createWebhookInbox } from "../../../src/shared/webhooks/create-webhook-inbox.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps } from "../../../src/shared/webhooks/types.js";

const logger = pino({ level: "silent" });
const orderId = "0123456789abcdef01234567";
const waitOpts = { timeout: 20_000, interval: 10 };

function item(deliveryId: string): InboxItem {
  return { chatId: 1, deliveryId, event: "order.created", body: JSON.stringify({ data: { order: { orderId } } }), verified: true, receivedAt: Date.now() };
}

/** The store with every write counted, to state how many commits an acknowledgement costs. */
function countingStore(store: StoreBackend, writes: { count: number; largest?: number }): StoreBackend {
  const batch = (size: number) => {
    writes.count += 1;
    writes.largest = Math.max(writes.largest ?? 0, size);
  };
  return {
    ...store,
    kind: store.kind,
    namespace(name): KeyValue {
      const kv = store.namespace(name);
      return {
        ...kv,
        get: (key) => kv.get(key),
        entries: () => kv.entries(),
        clear: () => kv.clear(),
        set: (key, value, ttlMs) => ((writes.count += 1), kv.set(key, value, ttlMs)),
        delete: (key) => ((writes.count += 1), kv.delete(key)),
        // A batched write is one round trip (one transaction on SQLite): one write.
        ...(kv.setMany && { setMany: (entries) => (batch(entries.length), kv.setMany!(entries)) }),
        ...(kv.deleteMany && { deleteMany: (keys) => (batch(keys.length), kv.deleteMany!(keys)) }),
      };
    },
  };
}

describe("webhook inbox: bounded processing and back-pressure", () => {
  let dir: string;
  let store: StoreBackend;
  const inboxes: WebhookInbox[] = [];
  let release!: () => void;
  let gate: Promise<void>;
  let active = 0;
  let maxActive = 0;
  let started = 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "inbox-bp-"));
    store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
    gate = new Promise<void>((r) => (release = r));
    active = 0;
    maxActive = 0;
    started = 0;
  });
  afterEach(async () => {
    release();
    for (const i of inboxes.splice(0)) await i.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const blocked: WebhookInboxDeps["onEvent"] = async () => {
    started += 1;
    active += 1;
    maxActive = Math.max(maxActive, active);
    await gate;
    active -= 1;
  };

  function inbox(extra: Partial<WebhookInboxDeps> = {}, on: StoreBackend = store) {
    const i = createWebhookInbox({ store: on, logger, onEvent: blocked, baseDelayMs: 10, ...extra });
    inboxes.push(i);
    return i;
  }

  it("processes at most `concurrency` deliveries at once, and all of them in the end", async () => {
    const i = inbox({ concurrency: 2 });
    await i.start();
    for (let n = 0; n < 8; n += 1) expect(await i.accept(item(`d${n}`))).toBe("accepted");
    await vi.waitFor(() => expect(started).toBe(2), waitOpts);
    expect(active).toBe(2);
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(started).toBe(8);
    expect(maxActive).toBe(2);
  });

  it("answers 'full' once maxPending deliveries wait, storing nothing, and accepts again once they are done", async () => {
    const i = inbox({ concurrency: 1, maxPending: 3 });
    await i.start();
    for (const id of ["a", "b", "c"]) expect(await i.accept(item(id))).toBe("accepted");
    expect(await i.accept(item("d"))).toBe("full");
    expect(await i.size()).toBe(3);
    // A redelivery of a stored one is still a duplicate, not "full".
    expect(await i.accept(item("a"))).toBe("duplicate");
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(await i.accept(item("d"))).toBe("accepted");
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(await i.accept(item("a"))).toBe("duplicate");
  });

  it("absorbs a burst past what memory holds: each delivery stored and accepted, none 'full', each processed once", async () => {
    const seen: string[] = [];
    const onEvent: WebhookInboxDeps["onEvent"] = async (notice) => {
      await blocked(notice);
      seen.push(notice.deliveryId);
    };
    const i = inbox({ concurrency: 1, maxInMemory: 5, onEvent });
    await i.start();
    const ids = Array.from({ length: 40 }, (_, n) => `burst-${n}`);
    // Signed content, as a verified delivery carries it: a replay of a spilled one must stay a duplicate.
    const signedItem = (id: string, hash: string): InboxItem => ({ ...item(id), signed: { hash, untilMs: Date.now() + 300_000 } });
    const hashOf = (n: number) => createHash("sha256").update(String(n)).digest("hex");
    expect(await Promise.all(ids.map((id, n) => i.accept(signedItem(id, hashOf(n)))))).toEqual(ids.map(() => "accepted"));
    expect(await i.size()).toBe(ids.length);
    // One at a time too, past the bound: still stored and accepted.
    expect(await i.accept(signedItem("late", hashOf(999)))).toBe("accepted");
    // Replays while they wait, in memory or in the store: by delivery id, and by signed content under a fresh id.
    expect(await i.accept(signedItem("burst-39", hashOf(39)))).toBe("duplicate");
    expect(await i.accept(signedItem("replay-of-39", hashOf(39)))).toBe("duplicate");
    expect(await i.accept(signedItem("replay-of-0", hashOf(0)))).toBe("duplicate");
    expect(await i.accept(signedItem("replay-of-late", hashOf(999)))).toBe("duplicate");
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect([...seen].sort()).toEqual([...ids, "late"].sort());
    expect(await i.accept(signedItem("replay-of-20", hashOf(20)))).toBe("duplicate");
  });

  it("leaves what memory cannot hold in the store at start, and processes all of it once", async () => {
    const first = inbox({ maxInMemory: 3 });
    const ids = Array.from({ length: 12 }, (_, n) => `left-${n}`);
    // Not started: everything waits in the store, as after a crash.
    for (const id of ids) expect(await first.accept(item(id))).toBe("accepted");
    await first.stop();
    const seen: string[] = [];
    const second = inbox({ maxInMemory: 3, concurrency: 1, onEvent: (notice) => Promise.resolve(void seen.push(notice.deliveryId)) });
    await second.start();
    await vi.waitFor(async () => expect(await second.size()).toBe(0), waitOpts);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it("counts deliveries left by a previous process against the bound", async () => {
    const first = inbox({ maxPending: 2 });
    expect(await first.accept(item("a"))).toBe("accepted");
    expect(await first.accept(item("b"))).toBe("accepted");
    await first.stop();
    const second = inbox({ maxPending: 2, concurrency: 1 });
    await second.start();
    expect(await second.accept(item("c"))).toBe("full");
    release();
    await vi.waitFor(async () => expect(await second.size()).toBe(0), waitOpts);
    expect(await second.accept(item("c"))).toBe("accepted");
  });

  it("persists an accepted delivery with one store write; the dedup marker is written when it is done", async () => {
    const writes = { count: 0 };
    const i = inbox({}, countingStore(store, writes));
    await i.start();
    expect(await i.accept(item("one"))).toBe("accepted");
    expect(writes.count).toBe(1);
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(await i.accept(item("one"))).toBe("duplicate");
  });

  it("persists deliveries arriving together with one store write, each acknowledged once it is stored", async () => {
    const writes = { count: 0 };
    const i = inbox({}, countingStore(store, writes));
    await i.start();
    const results = await Promise.all(["g1", "g2", "g3", "g4", "g1"].map((id) => i.accept(item(id))));
    expect(results).toEqual(["accepted", "accepted", "accepted", "accepted", "duplicate"]);
    expect(writes.count).toBe(1);
    // Stored before the answers: a second inbox over the same store (a restart) finds all four.
    const reopened = createWebhookInbox({ store, logger, onEvent: blocked });
    expect(await reopened.size()).toBe(4);
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
  });

  it("removes deliveries that the workers finish together with grouped writes, not a marker write and a delete per worker", async () => {
    const writes = { count: 0 };
    const i = inbox({ concurrency: 4 }, countingStore(store, writes));
    await i.start();
    const ids = Array.from({ length: 8 }, (_, n) => `together-${n}`);
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "accepted"));
    // Each of the 4 workers holds its share of the 8, all waiting on the same gate.
    await vi.waitFor(() => expect(started).toBe(4), waitOpts);
    const beforeRemovals = writes.count;
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(started).toBe(8);
    // A pair per worker's batch would be 8 writes (10 when a worker takes a second batch); grouped, at most two pairs.
    expect(writes.count - beforeRemovals).toBeLessThanOrEqual(4);
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "duplicate"));
  });

  it("gives the event loop a turn between deliveries, so answers never wait behind a whole batch of quick ones", async () => {
    let processed = 0;
    const i = inbox({ concurrency: 1, onEvent: () => ((processed += 1), Promise.resolve()) });
    await i.start();
    const ids = Array.from({ length: 50 }, (_, n) => `quick-${n}`);
    // Accepted together: the one worker takes all 50 as one batch, in the turn after they are stored.
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "accepted"));
    // What an HTTP answer waits for: a turn of the loop. It comes after one delivery, not after the batch.
    const seenAtTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(processed)));
    expect(seenAtTurn).toBeLessThan(ids.length);
    await vi.waitFor(() => expect(processed).toBe(ids.length), waitOpts);
  });

  it("stops between two deliveries of a batch, leaving the rest stored for the next start, each processed once", async () => {
    const seen: string[] = [];
    // The worker's first batch is the first delivery alone (the others were still being queued); the second batch holds
    // the other 49, and its first delivery is held until stop() has been asked for.
    const onEvent: WebhookInboxDeps["onEvent"] = async (notice) => {
      seen.push(notice.deliveryId);
      if (seen.length === 2) await gate;
    };
    const first = inbox({ concurrency: 1, onEvent });
    await first.start();
    const ids = Array.from({ length: 50 }, (_, n) => `stopping-${n}`);
    expect(await Promise.all(ids.map((id) => first.accept(item(id))))).toEqual(ids.map(() => "accepted"));
    await vi.waitFor(() => expect(seen).toHaveLength(2), waitOpts);
    const stopped = first.stop();
    release();
    await stopped;
    const processedBefore = seen.length;
    expect(processedBefore).toBeLessThan(ids.length);
    expect(await first.size()).toBe(ids.length - processedBefore);
    const second = inbox({ concurrency: 1, onEvent });
    await second.start();
    await vi.waitFor(async () => expect(await second.size()).toBe(0), waitOpts);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it("lets a processed delivery's removal wait to share its write pair with later ones, without holding the workers", async () => {
    const writes = { count: 0 };
    // A linger no test outlasts: only a full group or stop() writes the removals.
    const i = inbox({ concurrency: 1, removalLingerMs: 600_000 }, countingStore(store, writes));
    await i.start();
    release();
    const ids = ["apart-1", "apart-2", "apart-3"];
    // One at a time: each its own accept, its own worker batch, done before the next arrives.
    for (const [n, id] of ids.entries()) {
      expect(await i.accept(item(id))).toBe("accepted");
      await vi.waitFor(() => expect(started).toBe(n + 1), waitOpts);
    }
    // All three processed by the one worker; none removed yet, and still duplicates meanwhile.
    expect(writes.count).toBe(3);
    expect(await i.size()).toBe(3);
    expect(await i.accept(item("apart-1"))).toBe("duplicate");
    await i.stop();
    // Stopping writes the lingering group at once: markers and removals, one write each.
    expect(writes.count).toBe(5);
    expect(await i.size()).toBe(0);
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "duplicate"));
  });

  it("keeps each grouped removal to at most 100 deliveries when every worker drains a backlog at once", async () => {
    const writes: { count: number; largest?: number } = { count: 0 };
    const i = inbox({ concurrency: 4 }, countingStore(store, writes));
    await i.start();
    const ids = Array.from({ length: 260 }, (_, n) => `backlog-${n}`);
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "accepted"));
    await vi.waitFor(() => expect(started).toBe(4), waitOpts);
    writes.largest = 0;
    release();
    await vi.waitFor(async () => expect(await i.size()).toBe(0), waitOpts);
    expect(started).toBe(260);
    // One synchronous transaction per write: 260 removals in one would hold the event loop that long.
    expect(writes.largest).toBeLessThanOrEqual(100);
    expect(await Promise.all(ids.map((id) => i.accept(item(id))))).toEqual(ids.map(() => "duplicate"));
  });
});
