import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveItems } from "../../../src/shared/tracking/live-items.js";
import { newTrackedItem } from "../../../src/shared/tracking/tracked-item.js";
import { createTracker, type TrackerDeps } from "../../../src/shared/tracking/tracker.js";
import { startSimEnv, type SimEnv } from "../orders/sim-env.js";

let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv();
});
afterEach(async () => env.stop());

/** A service whose reads never answer until their signal aborts; every signal handed to it is kept. */
function hangingService() {
  const signals: AbortSignal[] = [];
  const hang = (_apiKey: string, _id: string, options?: { signal?: AbortSignal }): Promise<never> =>
    new Promise((_resolve, reject) => {
      const signal = options?.signal;
      if (!signal) return reject(new Error("a read without a signal"));
      signals.push(signal);
      if (signal.aborted) return reject(new Error("aborted"));
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  return { signals, service: { getOrder: hang, getBroadcast: hang } as unknown as TrackerDeps["service"] };
}

function gauge() {
  const values = new Map<string, number>();
  return { values, metrics: { set: (name: string, value: number, labels?: Record<string, string>) => values.set(`${name}:${labels?.["kind"]}`, value) } };
}

async function newTracker(overrides: Partial<TrackerDeps> = {}) {
  const { store, history } = await env.open();
  const { signals, service } = hangingService();
  const { values, metrics } = gauge();
  const tracker = createTracker({
    store,
    history,
    service,
    metrics,
    getApiKey: () => Promise.resolve("key"),
    onChange: () => Promise.resolve(),
    logger: env.logger,
    minDelayMs: 10,
    maxDelayMs: 40,
    firstReadSpread: { perItemMs: 1, maxMs: 50 },
    ...overrides,
  });
  return { tracker, signals, store, gauged: (kind: string) => values.get(`tracked_items:${kind}`) };
}

const order = (chatId: number, n: number) => ({ chatId, kind: "order" as const, id: `o-${chatId}-${n}` });

describe("tracker at start", () => {
  it("keeps the tracked_items gauge exact per kind over many adds, replacements and removes", () => {
    const { values, metrics } = gauge();
    const live = new LiveItems(metrics);
    const model = new Map<string, "order" | "broadcast">();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let step = 0; step < 5_000; step += 1) {
      const key = `k${random(300)}`;
      const kind = random(2) === 0 ? "order" : "broadcast";
      if (random(3) === 0) {
        live.delete(key);
        model.delete(key);
      } else {
        live.set(key, { item: newTrackedItem({ chatId: 1, kind, id: key }, "bot", 0, { orderHorizonMs: 1, broadcastMarginMs: 1 }) });
        model.set(key, kind);
      }
      if (step % 97 === 0 || step === 4_999) {
        for (const k of ["order", "broadcast"] as const) {
          const expected = [...model.values()].filter((v) => v === k).length;
          expect(live.countOf(k)).toBe(expected);
          expect(values.get(`tracked_items:${k}`)).toBe(expected);
        }
      }
    }
    expect(live.size).toBe(model.size);
    live.clear();
    expect([values.get("tracked_items:order"), values.get("tracked_items:broadcast"), live.size]).toEqual([0, 0, 0]);
  });

  it("gives each read a signal of its own and aborts every one in flight on stop", async () => {
    const { tracker, signals, gauged } = await newTracker({ readLimits: { maxInFlight: 40, maxPerSecond: 10_000 } });
    await tracker.start();
    for (let n = 0; n < 40; n += 1) await tracker.track({ ...order(1, n), status: "pending" });
    expect([gauged("order"), gauged("broadcast")]).toEqual([40, 0]);
    await vi.waitFor(() => expect(signals).toHaveLength(40), { timeout: 5_000 });
    expect(new Set(signals).size).toBe(40);
    expect(signals.some((s) => s.aborted)).toBe(false);
    await tracker.stop();
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect([gauged("order"), tracker.size]).toEqual([0, 0]);
  });

  it("sends at most readLimits.maxInFlight reads at once, the others in turn as answers come", async () => {
    const answers: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    const getOrder = (_apiKey: string, id: string, options?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const settle = (answer: () => void) => () => {
          inFlight -= 1;
          answer();
        };
        options?.signal?.addEventListener(
          "abort",
          settle(() => reject(new Error("aborted"))),
          { once: true },
        );
        answers.push(settle(() => resolve({ orderId: id, status: "pending" })));
      });
    const { tracker } = await newTracker({
      readLimits: { maxInFlight: 4, maxPerSecond: 10_000 },
      service: { getOrder, getBroadcast: getOrder } as unknown as TrackerDeps["service"],
    });
    await tracker.start();
    for (let n = 0; n < 20; n += 1) await tracker.track({ ...order(3, n), status: "pending" });
    await vi.waitFor(() => expect(answers).toHaveLength(4), { timeout: 5_000 });
    // Each answer lets a waiting read go: four at a time, round after round.
    for (let round = 1; round <= 5; round += 1) {
      for (const answer of answers.splice(0)) answer();
      await vi.waitFor(() => expect(answers).toHaveLength(4), { timeout: 5_000 });
    }
    await tracker.stop();
    expect(most).toBe(4);
    expect(inFlight).toBe(0);
  });

  it("started in the background, resolves before the stored items are picked up and adopts all of them meanwhile", async () => {
    const first = await newTracker();
    await first.tracker.start();
    for (let n = 0; n < 300; n += 1) await first.tracker.track({ ...order(2, n), status: "pending" });
    await first.tracker.stop();

    const next = await newTracker({ readLimits: { maxInFlight: 300, maxPerSecond: 10_000 } });
    await next.tracker.start({ inBackground: true });
    // Listing 300 items takes several turns of the event loop: none is adopted when start() has resolved.
    expect(next.tracker.size).toBe(0);
    await vi.waitFor(() => expect(next.tracker.size).toBe(300), { timeout: 10_000 });
    expect(next.gauged("order")).toBe(300);
    await vi.waitFor(() => expect(next.signals).toHaveLength(300), { timeout: 10_000 });
    expect(new Set(next.signals).size).toBe(300);
    await next.tracker.stop();
    expect(next.signals.every((s) => s.aborted)).toBe(true);
  });

  it("logs a failed background pick-up and tries it again", async () => {
    const first = await newTracker();
    await first.tracker.start();
    await first.tracker.track({ ...order(3, 0), status: "pending" });
    await first.tracker.stop();

    const { store } = await env.open();
    let failures = 1;
    const failing = new Proxy(store, {
      get(target, prop) {
        if (prop !== "namespace") return Reflect.get(target, prop, target) as unknown;
        return (name: string) => {
          const kv = target.namespace(name);
          if (name !== "tracking") return kv;
          return new Proxy(kv, {
            get(k, q) {
              if (q === "keyPages" && failures > 0) {
                failures -= 1;
                return () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("store down")) }) });
              }
              const v = Reflect.get(k, q, k) as unknown;
              return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(k) : v;
            },
          });
        };
      },
    });
    const errors: string[] = [];
    const logger = pino({ level: "error" }, { write: (line: string) => void errors.push(line) });
    const next = await newTracker({ store: failing, logger, scanIntervalMs: 20 });
    await next.tracker.start({ inBackground: true });
    await vi.waitFor(() => expect(next.tracker.size).toBe(1), { timeout: 5_000 });
    expect(errors.join("")).toMatch(/store down/);
    await next.tracker.stop();
  });
});
