/**
 * The lease contract on every backend: two stores opened on the same storage
 * stand for two processes. One claim wins, however many race; the holder may
 * extend it; it runs out by itself; release frees only the holder's claim.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createLeases } from "../../../src/core/store/lease.js";
import { openStore } from "../../../src/core/store/open-store.js";
import type { StoreBackend } from "../../../src/core/store/types.js";
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
  });
}
