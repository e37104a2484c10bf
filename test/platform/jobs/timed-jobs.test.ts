/**
 * The timed-jobs contract of the jobs engine on every backend (the store's own timers on SQLite, Redis and Postgres,
 * and BullMQ's delayed jobs on Redis); two engines opened on the same storage stand for two processes. A job
 * runs once it falls due and is then gone; it survives a restart; a job scheduled by one process is run by another
 * that rescans; under a lease only one of two processes runs it; a run that throws is run again; a cancelled job
 * never runs; and when a job falls due is read from its payload each time it is armed.
 */
import { createClient } from "@keyv/redis";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createJobsEngine } from "../../../src/platform/jobs/jobs-engine.js";
import type { TimedJobs, TimedJobsDeps } from "../../../src/platform/jobs/timed-jobs.js";
import type { QueueMode } from "../../../src/platform/queue/queue-mode.js";
import { createLeases } from "../../../src/platform/store/lease.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger, eventually, runId, storeTargets } from "../store/helpers.js";

const payloadSchema = z.object({ n: z.number().int(), dueAtMs: z.number().int() });
type Payload = z.infer<typeof payloadSchema>;

const bullPrefix = `jobs-${runId()}`;
const onTheStore: QueueMode = { queue: "local" };
const targets = [
  ...storeTargets("timed-jobs").map((target) => ({ ...target, queueMode: onTheStore })),
  {
    ...storeTargets("timed-jobs-bullmq").find((target) => target.label === "Redis")!,
    label: "BullMQ on Redis",
    queueMode: { queue: "bullmq", redisUrl: process.env["TEST_REDIS_URL"] ?? "", bullPrefix } as QueueMode,
    async cleanup() {
      const client = createClient({ url: process.env["TEST_REDIS_URL"]! });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${bullPrefix}:*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys);
      await client.close();
    },
  },
];

for (const target of targets) {
  if (target.url === undefined) console.log(`[timed-jobs] skipping ${target.label}: ${target.skip}`);

  describe.skipIf(target.url === undefined)(`timed jobs on ${target.label}`, () => {
    const opened: StoreBackend[] = [];
    const running: Array<TimedJobs<Payload>> = [];
    async function process(): Promise<StoreBackend> {
      const store = await openStore(target.url!, { logger: captureLogger().logger });
      opened.push(store);
      return store;
    }
    afterAll(async () => {
      for (const jobs of running) await jobs.stop();
      for (const s of opened) await s.close();
      await target.cleanup?.();
    });

    function jobsOn(
      store: StoreBackend,
      namespace: string,
      run: TimedJobsDeps<Payload>["run"],
      extra: Partial<TimedJobsDeps<Payload>> = {},
    ): TimedJobs<Payload> {
      const jobs = createJobsEngine({ store, ...target.queueMode }).define<Payload>({
        kind: "test-job",
        namespace,
        schema: payloadSchema,
        version: 1,
        logger: captureLogger().logger,
        rescanIntervalMs: 50,
        retryDelayMs: 20,
        dueAtMs: (p) => p.dueAtMs,
        run,
        ...extra,
      });
      running.push(jobs);
      return jobs;
    }

    it("runs a job once it falls due, then forgets it", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const ran: number[] = [];
      const jobs = jobsOn(store, ns, (p) => Promise.resolve(void ran.push(p.n)));
      await jobs.start();
      await jobs.schedule("a", { n: 1, dueAtMs: Date.now() + 30 }, 60_000);
      await jobs.schedule("later", { n: 2, dueAtMs: Date.now() + 3_600_000 }, 7_200_000);
      await eventually(() => ran.length === 1);
      expect(ran).toEqual([1]);
      await eventually(async () => (await jobs.get("a")) === undefined);
      expect(await jobs.get("later")).toEqual({ n: 2, dueAtMs: expect.any(Number) as number });
    });

    it("keeps its jobs through a restart, and a job another process scheduled is run by one that rescans", async () => {
      const [a, b] = [await process(), await process()];
      const ns = `jobs-${runId()}`;
      const first = jobsOn(a, ns, () => Promise.reject(new Error("this process must not run it")));
      await first.schedule("kept", { n: 7, dueAtMs: Date.now() + 50 }, 60_000);
      await first.stop(); // never started: it only stored the job, as a process that died right after would have

      const ran: number[] = [];
      const second = jobsOn(b, ns, (p) => Promise.resolve(void ran.push(p.n)));
      await second.start();
      await eventually(() => ran.length === 1);
      expect(ran).toEqual([7]);

      await second.schedule("rescanned", { n: 8, dueAtMs: Date.now() + 3_600_000 }, 7_200_000);
      const third = jobsOn(a, ns, (p) => Promise.resolve(void ran.push(p.n)));
      await third.start();
      await eventually(async () => (await third.armed()) === 1);
    });

    it("lets one of two processes run a due job under the lease", async () => {
      const [a, b] = [await process(), await process()];
      const ns = `jobs-${runId()}`;
      const ran: string[] = [];
      const leaseKeys: string[] = [];
      const claimOf = (store: StoreBackend, owner: string) => {
        const leases = createLeases({ store, owner });
        return (key: string, ttlMs: number) => {
          leaseKeys.push(key);
          return leases.claim(key, ttlMs);
        };
      };
      // A run that lasts a while: without the lease the other process, its timer due too, would find the job still stored.
      const slowRun = (who: string) => () => new Promise<void>((resolve) => setTimeout(() => resolve(void ran.push(who)), 150));
      const one = jobsOn(a, ns, slowRun("one"), { claim: claimOf(a, "one") });
      const two = jobsOn(b, ns, slowRun("two"), { claim: claimOf(b, "two") });
      await Promise.all([one.start(), two.start()]);
      const dueAtMs = Date.now() + 300;
      // Two backends share one Redis, and with it the leases: the key is this test's own.
      const key = `shared-${ns}`;
      await one.schedule(key, { n: 1, dueAtMs }, 60_000);
      await eventually(async () => (await two.armed()) === 1 || ran.length > 0);
      await eventually(async () => ran.length === 1 && (await one.get(key)) === undefined);
      // Both armed it; the lease let one run it, and the other found it gone or claimed.
      expect(ran).toHaveLength(1);
      expect(leaseKeys.length).toBeGreaterThan(0);
      expect(leaseKeys.every((k) => k === `test-job:${key}`)).toBe(true);
    });

    it("never runs a job a second time in the process whose run of it is under way", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      let runs = 0;
      let finish = () => {};
      const jobs = jobsOn(
        store,
        ns,
        () =>
          new Promise<void>((resolve) => {
            runs += 1;
            finish = resolve;
          }),
        { rescanIntervalMs: 5 },
      );
      await jobs.start();
      await jobs.schedule("long", { n: 1, dueAtMs: Date.now() }, 60_000);
      await eventually(() => runs === 1);
      // Rescans come and go while the run is under way (each arms a job another process stored); the record is still
      // stored, and the lease (by default always granted to this process) would not stop a second run here.
      const other = jobsOn(store, ns, () => Promise.resolve());
      for (const probe of ["probe-1", "probe-2"]) {
        await other.schedule(probe, { n: 9, dueAtMs: Date.now() + 3_600_000 }, 7_200_000);
        await eventually(async () => (await jobs.armed()) === (probe === "probe-1" ? 1 : 2));
      }
      expect(runs).toBe(1);
      finish();
      await eventually(async () => (await jobs.get("long")) === undefined);
      expect(runs).toBe(1);
    });

    it("runs a job again that its own run scheduled for the same time", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const due = { n: 1, dueAtMs: Date.now() };
      let runs = 0;
      const jobs: TimedJobs<Payload> = jobsOn(
        store,
        ns,
        async (p, key) => {
          runs += 1;
          if (runs === 1) await jobs.schedule(key, p, 60_000);
          else await jobs.cancel(key);
        },
        { handlerKeepsRecords: true },
      );
      await jobs.start();
      await jobs.schedule("again", due, 60_000);
      await eventually(() => runs === 2);
      await eventually(async () => (await jobs.get("again")) === undefined);
      expect(runs).toBe(2);
    });

    it("runs a job again after its run threw, and never a cancelled one", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      let tries = 0;
      const ran: number[] = [];
      const jobs = jobsOn(store, ns, (p) => {
        if (p.n === 1 && ++tries < 3) return Promise.reject(new Error("announcer down"));
        ran.push(p.n);
        return Promise.resolve();
      });
      await jobs.start();
      await jobs.schedule("flaky", { n: 1, dueAtMs: Date.now() }, 60_000);
      await jobs.schedule("cancelled", { n: 2, dueAtMs: Date.now() + 200 }, 60_000);
      await jobs.cancel("cancelled");
      await eventually(() => ran.includes(1));
      expect(tries).toBe(3);
      expect(await jobs.get("cancelled")).toBeUndefined();
      await jobs.schedule("marker", { n: 3, dueAtMs: Date.now() + 250 }, 60_000);
      await eventually(() => ran.includes(3));
      expect(ran).toEqual([1, 3]);
    });

    it("waits twice as long after each further failure of a job, up to the longest wait, and starts over after a success", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const log = captureLogger();
      let tries = 0;
      const jobs = jobsOn(
        store,
        ns,
        (p) => {
          tries += 1;
          return p.n === 1 && tries <= 4 ? Promise.reject(new Error("service down")) : Promise.resolve();
        },
        { logger: log.logger, retryDelayMs: 10, maxRetryDelayMs: 40 },
      );
      await jobs.start();
      await jobs.schedule("flaky", { n: 1, dueAtMs: Date.now() }, 60_000);
      await eventually(async () => (await jobs.get("flaky")) === undefined);
      expect(tries).toBe(5);
      const waits = log
        .records()
        .filter((r) => r["msg"] === "timed job did not run; will retry")
        .map((r) => r["retryInMs"]);
      expect(waits).toEqual([10, 20, 40, 40]);
    });

    it("tells when nothing it knows is due or running any more", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const ran: number[] = [];
      const jobs = jobsOn(store, ns, (p) => new Promise<void>((resolve) => setTimeout(() => resolve(void ran.push(p.n)), 20)));
      for (const n of [1, 2, 3]) await jobs.schedule(`now-${n}`, { n, dueAtMs: Date.now() }, 60_000);
      await jobs.schedule("later", { n: 4, dueAtMs: Date.now() + 3_600_000 }, 7_200_000);
      await jobs.start();
      await jobs.idle();
      expect(ran.sort()).toEqual([1, 2, 3]);
      expect(await jobs.armed()).toBe(1);
    });

    it("keeps a job due beyond the longest timer Node keeps (about 24.8 days) until it is due", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const ran: number[] = [];
      const jobs = jobsOn(store, ns, (p) => Promise.resolve(void ran.push(p.n)));
      await jobs.start();
      await jobs.schedule("in-40-days", { n: 40, dueAtMs: Date.now() + 40 * 86_400_000 }, 41 * 86_400_000);
      await jobs.schedule("soon", { n: 1, dueAtMs: Date.now() + 50 }, 60_000);
      await eventually(() => ran.includes(1));
      // `ran` is written from inside the run: what is armed is counted once the run, and the queue's handling of it, are over.
      await jobs.idle();
      expect(ran).toEqual([1]);
      expect(await jobs.get("in-40-days")).toBeDefined();
      expect(await jobs.armed()).toBe(1);
    });

    it("reads when a job falls due from its payload each time it is armed", async () => {
      const store = await process();
      const ns = `jobs-${runId()}`;
      const far = { n: 1, dueAtMs: Date.now() + 3_600_000 };
      const writer = jobsOn(store, ns, () => Promise.resolve());
      await writer.schedule("moved", far, 7_200_000);

      // A process whose rule brings every job forward (a shorter reminder lead) runs the stored job now.
      const ran: number[] = [];
      const reader = jobsOn(store, ns, (p) => Promise.resolve(void ran.push(p.n)), { dueAtMs: (p) => p.dueAtMs - 3_600_000 });
      await reader.start();
      await eventually(() => ran.length === 1);
      expect(ran).toEqual([1]);
    });
  });
}
