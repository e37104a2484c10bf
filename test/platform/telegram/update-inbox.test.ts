/**
 * The webhook update inbox on every backend. Two stores opened on the same
 * storage stand for two processes: an update_id is taken once however its
 * deliveries race, a redelivery after the handling is still dropped, and an
 * update a dead process accepted is handled by another one, in order.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deleteMany, setMany } from "../../../src/platform/store/batch.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { KeyValueEntry, StoreBackend } from "../../../src/platform/store/types.js";
import { createUpdateInbox, UpdateInProgressError, type UpdateInbox, type UpdateInboxDeps } from "../../../src/platform/telegram/update-inbox.js";
import { createVault } from "../../../src/shared/vault.js";
import { redisTarget, type StoreTarget } from "../../app-harness.js";
import { captureLogger, runId, storeTargets } from "../store/helpers.js";

interface Update {
  update_id: number;
  message?: { text: string };
}

/** One ENCRYPTION_KEY for every process of a file, as for replicas of one bot. */
const vault = createVault({ key: randomBytes(32) });

// Redis: a key prefix of its own in TEST_REDIS_URL's database (beforeAll): the sweeps read every update stored under it.
const targets = storeTargets("updates");

/** The next batch the runner would get, or a failure after `timeoutMs`. */
async function nextBatch(inbox: UpdateInbox<Update>, timeoutMs = 10_000): Promise<Update[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await inbox.supplier.supply(100, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** The ids among `ids` the inbox supplies, in the order it supplies them, each marked done. */
async function takeAll(inbox: UpdateInbox<Update>, ids: readonly number[]): Promise<number[]> {
  const taken: number[] = [];
  while (taken.length < ids.length) {
    const batch = await nextBatch(inbox);
    taken.push(...batch.filter((u) => ids.includes(u.update_id)).map((u) => u.update_id));
    for (const u of batch) await inbox.done(u);
  }
  return taken;
}

/** Update ids unique to this run: a shared server keeps the seen marks of earlier runs for a day. */
let nextId = Math.floor(Date.now() / 1000) * 1000;
const freshIds = (n: number) => Array.from({ length: n }, () => (nextId += 1));

for (const target of targets) {
  if (target.url === undefined) console.log(`[update-inbox] skipping ${target.label}: ${target.skip}`);

  describe.skipIf(target.url === undefined)(`the webhook update inbox on ${target.label}`, () => {
    const opened: StoreBackend[] = [];
    const inboxes: UpdateInbox<Update>[] = [];
    const url = target.url!;
    let redisDb: StoreTarget | undefined;
    let prefix: { prefix: string } | Record<string, never> = {};
    beforeAll(async () => {
      if (target.label !== "Redis") return;
      redisDb = await redisTarget(target.url!);
      prefix = { prefix: redisDb.prefix! };
    });
    afterAll(async () => {
      for (const inbox of inboxes) await inbox.stop();
      for (const s of opened) await s.close();
      await target.cleanup?.();
      await redisDb?.cleanup();
    });

    async function processOn(owner: string, tuning: Pick<UpdateInboxDeps, "runLeaseMs" | "sweepIntervalMs"> = {}): Promise<UpdateInbox<Update>> {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const inbox = createUpdateInbox<Update>({ store, owner, vault, logger: captureLogger().logger, ...tuning });
      inboxes.push(inbox);
      return inbox;
    }

    it("takes an update_id once, however its deliveries race across two processes", async () => {
      const a = await processOn(`a-${runId()}`);
      const b = await processOn(`b-${runId()}`);
      const [id] = freshIds(1) as [number];
      const update = { update_id: id, message: { text: "/balance" } };
      const results = await Promise.all([a, b, a, b, a, b].map((inbox) => inbox.accept(update)));
      expect(results.filter((r) => r === "accepted")).toHaveLength(1);
      expect(results.filter((r) => r === "duplicate")).toHaveLength(5);
      const taker = results.indexOf("accepted") % 2 === 0 ? a : b;
      expect(await nextBatch(taker)).toEqual([update]);
    });

    it("drops a redelivery that comes after the update was handled", async () => {
      const a = await processOn(`a-${runId()}`);
      const b = await processOn(`b-${runId()}`);
      const [id] = freshIds(1) as [number];
      expect(await a.accept({ update_id: id })).toBe("accepted");
      const [handled] = await nextBatch(a);
      await a.done(handled!);
      expect(await a.accept({ update_id: id })).toBe("duplicate");
      expect(await b.accept({ update_id: id })).toBe("duplicate");
    });

    it("never acknowledges an update a process died accepting before it was stored, and takes Telegram's redelivery once that process's lease ran out", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const [id] = freshIds(1) as [number];
      const survivor = await processOn(`survivor-${runId()}`);
      // The dead process took the update's run lease, then died before storing it: nothing was acknowledged.
      // Long enough for the next accept to meet it on a loaded machine; the wait below outlasts it.
      expect(await store.claimLease(`telegram-update-run:${String(id)}`, `dead-${runId()}`, 1_500)).toBe(true);
      await expect(survivor.accept({ update_id: id })).rejects.toBeInstanceOf(UpdateInProgressError);
      // Telegram delivers again until it gets a 200: once the lease ran out, that delivery is taken.
      await vi.waitFor(async () => expect(await survivor.accept({ update_id: id })).toBe("accepted"), { timeout: 15_000, interval: 100 });
      expect((await nextBatch(survivor)).map((u) => u.update_id)).toEqual([id]);
    });

    it("hands the updates a dead process accepted to another one once their leases run out", async () => {
      // Never started and never stopped: it accepts, then dies without renewing or releasing anything.
      const dead = await processOn(`dead-${runId()}`, { runLeaseMs: 400 });
      const ids = freshIds(3);
      for (const id of ids) expect(await dead.accept({ update_id: id })).toBe("accepted");
      const survivor = await processOn(`survivor-${runId()}`, { runLeaseMs: 400, sweepIntervalMs: 50 });
      try {
        await survivor.start();
        // Each is taken once its lease ran out. The order is the sweeps': a claim that comes as an older
        // lease is still running skips it for that sweep (ordered takeover is the stopped case below).
        expect([...(await takeAll(survivor, ids))].sort((a, b) => a - b)).toEqual(ids);
      } finally {
        await survivor.stop();
      }
    });

    it("gives its claims up when stopped, so the next start handles what was left at once, oldest first", async () => {
      const first = await processOn(`first-${runId()}`, { runLeaseMs: 600_000 });
      await first.start();
      const ids = freshIds(3);
      for (const id of [...ids].reverse()) expect(await first.accept({ update_id: id })).toBe("accepted");
      await first.stop();
      const restarted = await processOn(`restarted-${runId()}`, { runLeaseMs: 600_000 });
      try {
        await restarted.start();
        expect(await takeAll(restarted, ids)).toEqual(ids);
      } finally {
        await restarted.stop();
      }
    });

    it("takes a burst of updates with five store writes per hundred, each update once, redeliveries dropped", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const writes: string[] = [];
      const count =
        <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
        (...args: A) => (writes.push(name), fn(...args));
      const counted: UpdateInboxDeps["store"] = {
        claimLease: count("claimLease", (k: string, o: string, t: number) => store.claimLease(k, o, t)),
        releaseLease: count("releaseLease", (k: string, o: string) => store.releaseLease(k, o)),
        claimLeases: count("claimLeases", (k: readonly string[], o: string, t: number) => store.claimLeases!(k, o, t)),
        releaseLeases: count("releaseLeases", (k: readonly string[], o: string) => store.releaseLeases!(k, o)),
        namespace: (name) => {
          const ns = store.namespace(name);
          return {
            ...ns,
            entries: () => ns.entries(),
            set: count(`${name}.set`, (k: string, v: unknown, ttl?: number) => ns.set(k, v, ttl)),
            setMany: count(`${name}.setMany`, (entries: readonly KeyValueEntry[]) => setMany(ns, entries)),
            delete: count(`${name}.delete`, (k: string) => ns.delete(k)),
            deleteMany: count(`${name}.deleteMany`, (keys: readonly string[]) => deleteMany(ns, keys)),
            compareAndSet: count(`${name}.compareAndSet`, (k: string, e: string | null, v: unknown, ttl?: number) => ns.compareAndSet(k, e, v, ttl)),
          };
        },
      };
      const inbox = createUpdateInbox<Update>({ store: counted, owner: `burst-${runId()}`, vault, logger: captureLogger().logger });
      inboxes.push(inbox);
      const ids = freshIds(300);
      // Each update delivered once, and every tenth delivered twice at once (Telegram retrying a slow answer).
      const deliveries = [...ids, ...ids.filter((_, i) => i % 10 === 0)].map((id) => ({ update_id: id }));
      const results = await Promise.all(deliveries.map((u) => inbox.accept(u)));
      expect(results.filter((r) => r === "accepted")).toHaveLength(300);
      expect(results.filter((r) => r === "duplicate")).toHaveLength(30);
      const supplied: Update[] = [];
      while (supplied.length < 300) supplied.push(...(await nextBatch(inbox)));
      expect(supplied.map((u) => u.update_id)).toEqual(ids);
      await Promise.all(supplied.map((u) => inbox.done(u)));
      // Per group of 100 (each store call of a group is one transaction): one lease claim and one copy write for the accepts,
      // one mark write, one delete and one release for the dones.
      const perGroup = ["claimLeases", "releaseLeases", "telegram-updates-seen.setMany", "telegram-updates.deleteMany", "telegram-updates.setMany"];
      expect([...writes].sort()).toEqual(perGroup.flatMap((call) => [call, call, call]));
      expect(await Promise.all(ids.slice(0, 5).map((id) => inbox.accept({ update_id: id })))).toEqual(Array(5).fill("duplicate"));
    });

    it("stores the update sealed: neither its text nor any other field of it is written in the clear", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const inbox = await processOn(`sealer-${runId()}`);
      const [id] = freshIds(1) as [number];
      const secret = randomBytes(32).toString("hex");
      expect(await inbox.accept({ update_id: id, message: { text: `/link ${secret}` } })).toBe("accepted");
      const stored = await store.namespace("telegram-updates").get(String(id).padStart(16, "0"));
      expect(stored).toMatchObject({ sealed: expect.stringMatching(/^v2\./) as unknown });
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(JSON.stringify(stored)).not.toContain("/link");
      expect(await nextBatch(inbox)).toEqual([{ update_id: id, message: { text: `/link ${secret}` } }]);
    });

    it("takes over a copy an earlier version stored in the clear, and one sealed under another key is discarded", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const [plainId, foreignId] = freshIds(2) as [number, number];
      const keyOf = (id: number) => String(id).padStart(16, "0");
      const pending = store.namespace("telegram-updates");
      await pending.set(keyOf(plainId), { update: { update_id: plainId, message: { text: "/help" } }, receivedAt: Date.now() });
      const other = createVault({ key: randomBytes(32) });
      const foreign = other.seal(JSON.stringify({ update_id: foreignId }), keyOf(foreignId), "telegram-update");
      await pending.set(keyOf(foreignId), { sealed: foreign, receivedAt: Date.now() });
      const inbox = await processOn(`upgraded-${runId()}`, { runLeaseMs: 600_000 });
      await inbox.start();
      try {
        expect(await nextBatch(inbox)).toEqual([{ update_id: plainId, message: { text: "/help" } }]);
        expect(await pending.get(keyOf(foreignId))).toBeUndefined();
      } finally {
        await inbox.stop();
      }
    });

    it("stores over an entry at the update's key that holds no update, rather than taking it for a copy", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const [id] = freshIds(1) as [number];
      await store.namespace("telegram-updates").set(String(id).padStart(16, "0"), { update: { update_id: "not a number" } });
      const inbox = await processOn(`junk-${runId()}`);
      expect(await inbox.accept({ update_id: id, message: { text: "/help" } })).toBe("accepted");
      expect(await nextBatch(inbox)).toEqual([{ update_id: id, message: { text: "/help" } }]);
    });

    it("discards a stored entry that is not an update instead of reading it at every sweep", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      const junkKey = `junk-${runId()}`;
      await store.namespace("telegram-updates").set(junkKey, { update: { update_id: "not a number" } });
      const inbox = await processOn(`sweeper-${runId()}`, { runLeaseMs: 600_000 });
      await inbox.start();
      expect(await store.namespace("telegram-updates").get(junkKey)).toBeUndefined();
      await inbox.stop();
    });

    it("lets the update go when it could not be stored, so Telegram's redelivery is taken", async () => {
      const store = await openStore(url, { logger: captureLogger().logger, purgeIntervalMs: 0, ...prefix });
      opened.push(store);
      let failWrites = true;
      const flaky: UpdateInboxDeps["store"] = {
        claimLease: (key, owner, ttl) => store.claimLease(key, owner, ttl),
        releaseLease: (key, owner) => store.releaseLease(key, owner),
        namespace: (name) => {
          const ns = store.namespace(name);
          const full = () => Promise.reject(new Error("disk full"));
          return {
            ...ns,
            entries: () => ns.entries(),
            delete: (k) => ns.delete(k),
            set: (k, v, ttl) => (failWrites ? full() : ns.set(k, v, ttl)),
            setMany: (entries) => (failWrites ? full() : setMany(ns, entries)),
            compareAndSet: (k, expected, v, ttl) => (failWrites ? full() : ns.compareAndSet(k, expected, v, ttl)),
          };
        },
      };
      const inbox = createUpdateInbox<Update>({ store: flaky, owner: `flaky-${runId()}`, vault, logger: captureLogger().logger });
      inboxes.push(inbox);
      const [id] = freshIds(1) as [number];
      await expect(inbox.accept({ update_id: id })).rejects.toThrow("disk full");
      failWrites = false;
      expect(await inbox.accept({ update_id: id })).toBe("accepted");
      const [taken] = await nextBatch(inbox);
      await inbox.done(taken!);
    });
  });
}
