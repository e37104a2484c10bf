/**
 * A running plan is looked at through its renewal job: a plan stored without one (before the jobs existed, or a
 * crash between the two writes) gets one at start; a plan paused by its user has none until Resume gives it one.
 * The look here stops the plan as unlinked (the chat holds no key): what proves it was looked at.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKeepPlans, type KeepPlans } from "../../../src/features/keep/keep-plans.js";
import type { KeepPlan } from "../../../src/features/keep/keep-plan.js";
import { createKeepStore } from "../../../src/features/keep/keep-store.js";
import { createLogger } from "../../../src/platform/logger.js";
import { createLeases } from "../../../src/platform/store/lease.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createJobsEngine } from "../../../src/platform/jobs/jobs-engine.js";

const logger = createLogger({ level: "silent" });
const CHAT = 4401;

function storedPlan(planId: string, over: Partial<KeepPlan> = {}): KeepPlan {
  const at = Date.now();
  return {
    planId,
    chatId: CHAT,
    address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    amount: 65_000,
    durationSec: 3600,
    createdAtMs: at,
    timeZone: "UTC",
    state: "active",
    nextSlot: 0,
    slots: [],
    spentTotalSun: "0",
    spentDay: { day: "2026-11-29", sun: "0" },
    updatedAtMs: at,
    ...over,
  };
}

describe("keep renewals as timed jobs", () => {
  let dir: string;
  let store: StoreBackend;
  let plans: KeepPlans | undefined;
  const events: string[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "keep-jobs-"));
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger, purgeIntervalMs: 0 });
    events.length = 0;
  });

  afterEach(async () => {
    await plans?.stop();
    plans = undefined;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(): Promise<void> {
    plans = createKeepPlans({
      store,
      jobs: createJobsEngine({ store, queue: "local" }),
      leases: createLeases({ store, owner: "keep-jobs-test" }),
      // The look stops at the missing key, before any of these is asked.
      service: {} as never,
      pricing: {} as never,
      quotes: {} as never,
      placer: {} as never,
      history: {} as never,
      chats: { getApiKey: () => Promise.resolve(undefined), get: () => Promise.resolve(undefined) },
      onEvent: (event) => {
        events.push(`${event.kind}:${event.plan.planId}`);
        return Promise.resolve();
      },
      logger,
      tickMs: 20,
    });
    return plans.start();
  }

  it("looks at a running plan stored without a job as soon as it starts", async () => {
    await createKeepStore({ store, logger }).create(storedPlan("a0a0a0a0a0a1"));
    await start();
    await vi.waitFor(() => expect(events).toEqual(["stopped:a0a0a0a0a0a1"]));
    expect((await plans!.store.get("a0a0a0a0a0a1"))?.stopReason).toBe("unlinked");
  });

  it("gives a plan its user paused no look until Resume", async () => {
    await createKeepStore({ store, logger }).create(storedPlan("b0b0b0b0b0b2", { state: "paused", pauseReason: "user" }));
    await start();
    // A running plan started after it is looked at: by then the paused one would have been too.
    await createKeepStore({ store, logger }).create(storedPlan("c0c0c0c0c0c3"));
    await plans!.act(CHAT, "b0b0b0b0b0b2", "pause");
    await plans!.stop();
    await start();
    await vi.waitFor(() => expect(events).toEqual(["stopped:c0c0c0c0c0c3"]));
    expect((await plans!.store.get("b0b0b0b0b0b2"))?.state).toBe("paused");

    await plans!.act(CHAT, "b0b0b0b0b0b2", "resume");
    await vi.waitFor(() => expect(events).toEqual(["stopped:c0c0c0c0c0c3", "stopped:b0b0b0b0b0b2"]));
  });
});
