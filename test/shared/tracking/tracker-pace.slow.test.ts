import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeases } from "../../../src/platform/store/lease.js";
import { createTracker, type TrackerChange, type TrackerDeps } from "../../../src/shared/tracking/tracker.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { startWebhookReceiver, type WebhookHint } from "../../../testkit/signed-webhooks.js";
import { startSimEnv, type SimEnv } from "../orders/sim-env.js";
import { waitUntil } from "../../support/wait.js";

/**
 * Service reads per order against the simulator, on a clock 20 times faster
 * than production: 1 s is 50 ms, and the order moves pending → matching →
 * executing → fulfilled in 20-"second" steps (fulfilled 60 "s" after it is placed).
 */
const SECOND = 50;
const CHAT = 8301;
let env: SimEnv;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
beforeEach(async () => {
  env = await startSimEnv({ orderStepMs: 20 * SECOND });
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await env.stop();
});

async function setUp(options: { webhooks: boolean; forward?: (hint: WebhookHint) => boolean; wrongSecret?: boolean; overrides?: Partial<TrackerDeps> }) {
  const account = env.sim.createAccount({ balanceSun: 100_000_000 });
  let secret: string | undefined;
  const hints: Array<(hint: WebhookHint) => void> = [];
  let apiKey = account.apiKey;
  if (options.webhooks) {
    receiver = await startWebhookReceiver(
      () => secret,
      (hint) => hints.forEach((h) => h(hint)),
    );
    const key = env.sim.createApiKey(account.accountId, { callbackUrl: receiver.url });
    secret = options.wrongSecret ? `${key.webhookSecret}-not` : key.webhookSecret;
    apiKey = key.apiKey;
  }
  const reads = new Map<string, number>();
  const changes: TrackerChange[] = [];
  const { store, history } = await env.open();
  const tracker = createTracker({
    store,
    history,
    service: {
      getOrder: (...args) => {
        reads.set(args[1], (reads.get(args[1]) ?? 0) + 1);
        return env.service.getOrder(...args);
      },
      getBroadcast: (...args) => env.service.getBroadcast(...args),
    },
    getApiKey: () => Promise.resolve(apiKey),
    onChange: (c) => Promise.resolve(void changes.push(c)),
    logger: env.logger,
    minDelayMs: SECOND,
    maxDelayMs: 30 * SECOND,
    ...options.overrides,
  });
  hints.push((hint) => {
    if (options.forward?.(hint) ?? true) void tracker.hint({ chatId: CHAT, ...hint });
  });
  await tracker.start();
  const place = async () => {
    const { orders } = await env.patientService.createOrders(
      apiKey,
      [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
      `k-${Math.random()}`,
    );
    const id = orders[0]!.orderId;
    await tracker.track({ chatId: CHAT, kind: "order", id, status: "pending", cardMessageId: 9 });
    return id;
  };
  const fulfilled = (id: string) => changes.some((c) => c.record.orderId === id && c.record.status === "fulfilled");
  return { tracker, reads, changes, place, fulfilled };
}

describe("tracker pace", () => {
  it("reads an order fulfilled in 60 s at most 12 times when polling is the only source", async () => {
    const { tracker, reads, place, fulfilled, changes } = await setUp({ webhooks: false });
    const id = await place();
    await waitUntil(() => fulfilled(id), { timeoutMs: 15_000 });
    expect(reads.get(id)).toBeLessThanOrEqual(12);
    expect(changes.at(-1)).toMatchObject({ previousStatus: expect.any(String) as string, final: true });
    await tracker.stop();
  });

  it("reads it at most 3 times when the chat's signed webhooks arrive (polling is then a safety net)", async () => {
    const { tracker, reads, place, fulfilled } = await setUp({ webhooks: true });
    const id = await place();
    await waitUntil(() => fulfilled(id), { timeoutMs: 15_000 });
    // Announced first, forgotten right after: the item leaves once the announcement returned.
    await waitUntil(() => tracker.size === 0);
    expect(reads.get(id)).toBeLessThanOrEqual(3);
    await tracker.stop();
  });

  it("still sees the order fulfilled when the webhook for it never comes", async () => {
    // Trusted by the order.created webhook; the order.fulfilled one is lost on the way.
    let forwarded = 0;
    const { tracker, place, fulfilled, reads } = await setUp({ webhooks: true, forward: () => forwarded++ === 0 });
    const id = await place();
    await waitUntil(() => fulfilled(id), { timeoutMs: 20_000 });
    expect(forwarded).toBeGreaterThanOrEqual(2);
    expect(reads.get(id)).toBeGreaterThanOrEqual(2);
    await waitUntil(() => tracker.size === 0);
    await tracker.stop();
  });

  it("does not trust unsigned webhooks: the chat keeps its polling pace", async () => {
    const { tracker, place, fulfilled, reads } = await setUp({ webhooks: true, wrongSecret: true });
    const id = await place();
    await waitUntil(() => fulfilled(id), { timeoutMs: 15_000 });
    // 1, 3, 9, 15 … "s": far more than the 3 reads of a trusted chat, however late the timers ran.
    expect(reads.get(id)).toBeGreaterThanOrEqual(5);
    await tracker.stop();
  });

  it("lists the stored items periodically only when other processes may hold some (real leases)", async () => {
    const listings = async (leased: boolean) => {
      const { store } = await env.open();
      let lists = 0;
      const counted = {
        ...store,
        kind: store.kind,
        namespace: (name: string) => {
          const kv = store.namespace(name);
          return name === "tracking"
            ? {
                ...kv,
                keyPages: () => (lists++, kv.keyPages()),
                get: kv.get.bind(kv),
                set: kv.set.bind(kv),
                delete: kv.delete.bind(kv),
                clear: kv.clear.bind(kv),
                getVersioned: kv.getVersioned.bind(kv),
                compareAndSet: kv.compareAndSet.bind(kv),
              }
            : kv;
        },
      };
      const account = env.sim.createAccount({ balanceSun: 100_000_000 });
      let reads = 0;
      const tracker = createTracker({
        store: counted,
        service: { getOrder: (...args) => (reads++, env.service.getOrder(...args)), getBroadcast: (...args) => env.service.getBroadcast(...args) },
        getApiKey: () => Promise.resolve(account.apiKey),
        onChange: () => Promise.resolve(),
        logger: env.logger,
        minDelayMs: SECOND,
        scanIntervalMs: SECOND / 5,
        ...(leased ? { leases: createLeases({ store, owner: `pace-${Math.random()}` }) } : {}),
      });
      await tracker.start();
      env.sim.control.pauseLifecycles(true);
      const { orders } = await env.patientService.createOrders(
        account.apiKey,
        [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
        `k-${Math.random()}`,
      );
      await tracker.track({ chatId: CHAT, kind: "order", id: orders[0]!.orderId, status: "pending" });
      // Four reads span 15 "s" (750 ms): many scan intervals.
      await waitUntil(() => reads >= 4, { timeoutMs: 15_000 });
      await tracker.stop();
      env.sim.control.pauseLifecycles(false);
      return lists;
    };
    expect(await listings(false)).toBe(1);
    expect(await listings(true)).toBeGreaterThan(1);
  });
});
