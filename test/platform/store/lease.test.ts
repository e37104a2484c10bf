/**
 * The lease contract on every backend: two stores opened on the same storage
 * stand for two processes. One claim wins, however many race; the holder may
 * extend it; it runs out by itself; release frees only the holder's claim.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createLeases } from "../../../src/platform/store/lease.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger, eventually, runId, storeTargets } from "./helpers.js";

const targets = storeTargets("lease");

for (const target of targets) {
  if (target.url === undefined) console.log(`[lease] skipping ${target.label}: ${target.skip}`);

  describe.skipIf(target.url === undefined)(`leases on ${target.label}`, () => {
    const opened: StoreBackend[] = [];
    async function twoProcesses(): Promise<[StoreBackend, StoreBackend]> {
      const a = await openStore(target.url!, { logger: captureLogger().logger });
      const b = await openStore(target.url!, { logger: captureLogger().logger });
      opened.push(a, b);
      return [a, b];
    }
    afterAll(async () => {
      for (const s of opened) await s.close();
      await target.cleanup?.();
    });

    it("lets exactly one of many racing owners hold a key, and the holder extend it", async () => {
      const [a, b] = await twoProcesses();
      const key = `race-${runId()}`;
      const owners = Array.from({ length: 8 }, (_, i) => createLeases({ store: i % 2 === 0 ? a : b, owner: `owner-${i}` }));
      const results = await Promise.all(owners.map((l) => l.claim(key, 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = owners[results.indexOf(true)]!;
      expect(await winner.claim(key, 60_000)).toBe(true);
      expect(await owners[(results.indexOf(true) + 1) % 8]!.claim(key, 60_000)).toBe(false);
    });

    it("frees a claim when it runs out, and on release by its holder only", async () => {
      const [a, b] = await twoProcesses();
      const first = createLeases({ store: a, owner: "first" });
      const second = createLeases({ store: b, owner: "second" });
      const short = `short-${runId()}`;
      expect(await first.claim(short, 50)).toBe(true);
      await eventually(() => second.claim(short, 60_000));

      const held = `held-${runId()}`;
      expect(await first.claim(held, 60_000)).toBe(true);
      await second.release(held);
      expect(await second.claim(held, 60_000)).toBe(false);
      await first.release(held);
      expect(await second.claim(held, 60_000)).toBe(true);
    });

    it("claims many keys in one call with the same rules as one claim each: free, expired or mine are taken, another's are not", async () => {
      const [a, b] = await twoProcesses();
      const first = createLeases({ store: a, owner: "first" });
      const second = createLeases({ store: b, owner: "second" });
      const id = runId();
      const [free, mine, theirs, expiring] = ["free", "mine", "theirs", "expiring"].map((k) => `many-${k}-${id}`) as [string, string, string, string];
      expect(await first.claim(mine, 60_000)).toBe(true);
      expect(await second.claim(theirs, 60_000)).toBe(true);
      expect(await second.claim(expiring, 50)).toBe(true);
      // The other owner's short claim on `expiring` runs out: a later batch takes it.
      await eventually(async () => {
        const results = await first.claimMany([free, mine, theirs, expiring, mine], 60_000);
        expect(results.slice(0, 3)).toEqual([true, true, false]);
        expect(results[4]).toBe(true);
        return results[3] === true;
      });
      // Held now: the other owner is refused on each, alone or in a batch, and the renewal keeps them.
      expect(await second.claimMany([free, mine, expiring], 60_000)).toEqual([false, false, false]);
      expect(await second.claim(free, 60_000)).toBe(false);
      expect(await first.claimMany([], 60_000)).toEqual([]);
      await first.release(free);
      expect(await second.claimMany([free, theirs], 60_000)).toEqual([true, true]);
    });

    it("releases many keys in one call, each only where the releasing owner holds it", async () => {
      const [a, b] = await twoProcesses();
      const first = createLeases({ store: a, owner: "first" });
      const second = createLeases({ store: b, owner: "second" });
      const id = runId();
      const mine = Array.from({ length: 1_200 }, (_, i) => `release-mine-${i}-${id}`);
      const theirs = `release-theirs-${id}`;
      expect(await first.claimMany(mine, 60_000)).toEqual(mine.map(() => true));
      expect(await second.claim(theirs, 60_000)).toBe(true);
      await a.releaseLeases!([...mine, theirs, `release-never-held-${id}`], "first");
      await a.releaseLeases!([], "first");
      // Every key of mine is free for another owner now; the other owner's key is still held.
      expect(await second.claimMany(mine, 60_000)).toEqual(mine.map(() => true));
      expect(await first.claim(theirs, 60_000)).toBe(false);
    });

    it("claims a large batch in one call and keeps each key's result in order", async () => {
      const [a, b] = await twoProcesses();
      const keys = Array.from({ length: 2_500 }, (_, i) => `bulk-${i}-${runId()}`);
      const taken = keys.filter((_, i) => i % 7 === 0);
      for (const key of taken) expect(await b.claimLease(key, "other", 60_000)).toBe(true);
      const results = await a.claimLeases!(keys, "bulk-owner", 60_000);
      expect(results).toEqual(keys.map((_, i) => i % 7 !== 0));
      expect(await b.claimLeases!(keys.slice(0, 14), "other", 60_000)).toEqual(keys.slice(0, 14).map((_, i) => i % 7 === 0));
    });
  });
}
