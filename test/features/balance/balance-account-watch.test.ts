import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createChatRepository } from "../../../src/shared/chats/chat-repository.js";
import { createOrderHistory } from "../../../src/shared/orders/order-history.js";
import { ServiceError } from "../../../src/platform/service/errors.js";
import { createAccountWatch, type AccountWatch, type AccountWatchDeps, type WatchEvent } from "../../../src/features/balance/balance-account-watch.js";
import { createAlertSettings } from "../../../src/shared/chats/alert-settings.js";
import { createVault } from "../../../src/shared/vault.js";
import { eventually } from "../../platform/store/helpers.js";
import { startSimEnv, type SimEnv } from "../../shared/orders/sim-env.js";

const CHAT = 77;
const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";

describe("createAccountWatch", () => {
  let env: SimEnv;
  const watches: AccountWatch[] = [];
  const vault = createVault({ key: randomBytes(32) });

  beforeEach(async () => {
    env = await startSimEnv();
  });
  afterEach(async () => {
    for (const w of watches.splice(0)) await w.stop();
    await env.stop();
  });

  /** One "process": its own store handle over the same file, its own watch. */
  async function processWith(events: WatchEvent[], extra: Partial<AccountWatchDeps> = {}) {
    const opened = await env.open();
    const chats = createChatRepository({ store: opened.store, vault, logger: env.logger });
    const history = createOrderHistory({ store: opened.store, logger: env.logger, accountOf: (chatId) => chats.account(chatId) });
    const watch = createAccountWatch({
      store: opened.store,
      service: env.service,
      chats,
      history,
      pending: opened.pending,
      settings: createAlertSettings({ store: opened.store, logger: env.logger }),
      announce: (event) => Promise.resolve(void events.push(event)),
      logger: env.logger,
      intervalMs: 20,
      settleMs: 10,
      maxBackoffMs: 100,
      ...extra,
    });
    watches.push(watch);
    return { watch, chats, pending: opened.pending };
  }

  const balanceReads = () => env.sim.requests.filter((r) => r.path === "/v1/balance").length;
  async function readsMore(n: number): Promise<void> {
    const from = balanceReads();
    await eventually(() => balanceReads() >= from + n);
  }

  async function chargeBehindTheBotsBack(apiKey: string, key: string): Promise<void> {
    const res = await fetch(`${env.sim.baseUrl}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": key, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ toAddress: RECEIVER, amount: 65_000, resource: "ENERGY", durationSec: 3600 }] }),
    });
    expect(res.status).toBe(201);
  }

  it("two processes judging one chat give a deposit one announcement id", async () => {
    const account = env.sim.createAccount({ balanceSun: 50_000_000 });
    const a: WatchEvent[] = [];
    const b: WatchEvent[] = [];
    const one = await processWith(a);
    const two = await processWith(b);
    await one.chats.link(CHAT, { apiKey: account.apiKey });
    await one.watch.start();
    await two.watch.start();
    one.watch.linked(CHAT);
    await readsMore(4);
    env.sim.deposit(account.accountId, 10_000_000);
    await eventually(() => [...a, ...b].some((e) => e.kind === "deposit"));
    await readsMore(6);
    const deposits = [...a, ...b].filter((e) => e.kind === "deposit");
    expect(new Set(deposits.map((e) => e.id)).size).toBe(1);
    expect(deposits[0]).toMatchObject({ depositSun: 10_000_000n, balanceSun: 60_000_000n });
  });

  it("with a lease, only the holder reads the chat", async () => {
    const account = env.sim.createAccount({ balanceSun: 50_000_000 });
    const a: WatchEvent[] = [];
    const b: WatchEvent[] = [];
    const claims: string[] = [];
    const one = await processWith(a, { claim: (key) => Promise.resolve(void claims.push(key)).then(() => true) });
    let refused = 0;
    const two = await processWith(b, { claim: () => Promise.resolve(void (refused += 1)).then(() => false) });
    await one.chats.link(CHAT, { apiKey: account.apiKey });
    await two.watch.start();
    two.watch.linked(CHAT);
    await eventually(() => refused >= 3);
    expect(balanceReads()).toBe(0);
    await one.watch.start();
    one.watch.linked(CHAT);
    await readsMore(3);
    env.sim.deposit(account.accountId, 10_000_000);
    await eventually(() => a.some((e) => e.kind === "deposit"));
    expect(b).toEqual([]);
    expect(new Set(claims)).toEqual(new Set([`balance-watch:${CHAT}`]));
  });

  it("start does not wait for the sweep of linked chats, which then reads them in the background", async () => {
    const account = env.sim.createAccount({ balanceSun: 50_000_000 });
    const events: WatchEvent[] = [];
    const gate = { open: () => {} };
    const opened = new Promise<void>((resolve) => (gate.open = resolve));
    let listed = 0;
    const base = await processWith([]);
    await base.chats.link(CHAT, { apiKey: account.apiKey });
    await base.chats.link(CHAT + 1, { apiKey: account.apiKey });
    const p = await processWith(events, {
      chats: {
        open: (chatId) => base.chats.open(chatId),
        accountChats: (accountId) => base.chats.accountChats(accountId),
        async *linkedChatIds(known) {
          await opened;
          for await (const page of base.chats.linkedChatIds(known)) {
            listed += page.linked.length;
            yield page;
          }
        },
      },
    });
    await p.watch.start();
    expect(listed).toBe(0);
    expect(balanceReads()).toBe(0);
    gate.open();
    await readsMore(4);
    expect(listed).toBeGreaterThanOrEqual(2);
  });

  it("a sweep reads the records of chats it does not watch yet, and none once every linked chat is watched", async () => {
    const account = env.sim.createAccount({ balanceSun: 50_000_000 });
    const base = await processWith([]);
    for (const chatId of [CHAT, CHAT + 1]) await base.chats.link(chatId, { apiKey: account.apiKey });
    await base.chats.setLocale(CHAT + 2, "ru"); // a chat with a record and no key
    const sweeps: { read: number; linked: number[] }[] = [];
    const p = await processWith([], {
      chats: {
        open: (chatId) => base.chats.open(chatId),
        accountChats: (accountId) => base.chats.accountChats(accountId),
        async *linkedChatIds(known) {
          const sweep = { read: 0, linked: [] as number[] };
          for await (const page of base.chats.linkedChatIds(known)) {
            sweep.read += page.read;
            sweep.linked.push(...page.linked);
            yield page;
          }
          sweeps.push(sweep);
        },
      },
    });
    await p.watch.start();
    await vi.waitFor(() => expect(sweeps.length).toBeGreaterThanOrEqual(3));
    expect(sweeps[0]).toEqual({ read: 3, linked: [CHAT, CHAT + 1] });
    // The two linked chats are queued (or being read): only the chat without a key is read again.
    expect(sweeps.slice(1, 3)).toEqual([
      { read: 1, linked: [] },
      { read: 1, linked: [] },
    ]);
  });

  it("reads the chats at the pace it was given, a stop ending the sweep at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let listed = 0;
      const p = await processWith([], {
        sweepRecordsPerSecond: 1_000,
        chats: {
          open: () => Promise.resolve(undefined),
          accountChats: () => Promise.resolve([]),
          async *linkedChatIds() {
            // Pages of 100 records read, none of them linked.
            for (let n = 0; n < 10; n += 1) {
              listed += 100;
              yield await Promise.resolve({ linked: [], read: 100 });
            }
          },
        },
      });
      await p.watch.start();
      // Only promises between the slices: flushed without moving the clock.
      const flush = async () => {
        for (let turn = 0; turn < 20; turn += 1) await vi.advanceTimersByTimeAsync(0);
      };
      await flush();
      expect(listed).toBe(100);
      // 100 records a tenth of a second: the next slice only once that time has passed.
      await vi.advanceTimersByTimeAsync(50);
      expect(listed).toBe(100);
      await vi.advanceTimersByTimeAsync(50);
      await flush();
      expect(listed).toBe(200);
      await vi.advanceTimersByTimeAsync(50);
      expect(listed).toBe(200);
      await vi.advanceTimersByTimeAsync(250);
      await flush();
      expect(listed).toBe(500);
      await p.watch.stop();
      expect(listed).toBe(500);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a 429 holds the reads of every chat for its Retry-After", async () => {
    const account = env.sim.createAccount({ balanceSun: 50_000_000 });
    let reads = 0;
    let sweeps = 0;
    const service: AccountWatchDeps["service"] = {
      getBalance: () => {
        reads += 1;
        return Promise.reject(new ServiceError({ code: "rate_limited", status: 429, retryAfterSec: 3_600 }));
      },
      getBroadcast: () => Promise.reject(new Error("not read here")),
    };
    const base = await processWith([]);
    for (const chatId of [CHAT, CHAT + 1, CHAT + 2]) await base.chats.link(chatId, { apiKey: account.apiKey });
    const p = await processWith([], {
      service,
      concurrency: 1,
      chats: {
        open: (chatId) => base.chats.open(chatId),
        accountChats: (accountId) => base.chats.accountChats(accountId),
        async *linkedChatIds(known) {
          sweeps += 1;
          yield* base.chats.linkedChatIds(known);
        },
      },
    });
    await p.watch.start();
    await vi.waitFor(() => expect(reads).toBe(1));
    // Each sweep comes an interval (20 ms) after the last: many intervals pass with the other chats due.
    await vi.waitFor(() => expect(sweeps).toBeGreaterThanOrEqual(10), { timeout: 10_000 });
    expect(reads).toBe(1);
  });

  it("does not judge while a charge of the chat is in flight, then reports a foreign one and the crossing of the default threshold", async () => {
    const account = env.sim.createAccount({ balanceSun: 60_000_000 });
    const events: WatchEvent[] = [];
    const p = await processWith(events, { nextRenewalCostSun: () => Promise.resolve(55_000_000n) });
    await p.chats.link(CHAT, { apiKey: account.apiKey });
    await p.watch.start();
    p.watch.linked(CHAT);
    await readsMore(3);
    await p.pending.add({ kind: "order", id: "q-in-flight", chatId: CHAT, sinceMs: Date.now() });
    await chargeBehindTheBotsBack(account.apiKey, "k1");
    const spent = 60_000_000 - env.sim.balanceOf(account.accountId);
    await readsMore(4);
    expect(events).toEqual([]);
    await p.pending.remove("order", "q-in-flight");
    await eventually(() => events.length === 2);
    expect(events.map((e) => e.kind).sort()).toEqual(["foreign", "low"]);
    expect(events.find((e) => e.kind === "foreign")).toMatchObject({ droppedSun: BigInt(spent) });
    expect(events.find((e) => e.kind === "low")).toMatchObject({ thresholdSun: 55_000_000n, balanceSun: BigInt(60_000_000 - spent) });
    await readsMore(4);
    expect(events).toHaveLength(2);
  });
});
