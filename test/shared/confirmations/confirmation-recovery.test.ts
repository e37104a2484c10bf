import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBroadcastSubmitter } from "../../../src/shared/broadcasts/submit-broadcast.js";
import { createDraftStore } from "../../../src/shared/broadcasts/draft.js";
import { precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import { createConfirmationRecovery, type RecoveryOutcome } from "../../../src/shared/confirmations/confirmation-recovery.js";
import { keyTagOf } from "../../../src/shared/confirmations/pending-confirmations.js";
import { createOrderPlacer } from "../../../src/shared/orders/place-order.js";
import { buildQuote, type Quote } from "../../../src/shared/orders/quote.js";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";
import { debits, startSimEnv, type SimEnv } from "../orders/sim-env.js";
import { createJobsEngine } from "../../../src/platform/jobs/jobs-engine.js";

/**
 * What a crash leaves behind (a quote left `placing`, a draft left
 * `submitting`, each with its journal entry) is resolved at start-up: placed
 * and tracked when the service took it, told to the chat when it certainly
 * did not, asked again later while the service cannot answer.
 */

const CHAT = 7301;
let env: SimEnv;
beforeEach(async () => {
  env = await startSimEnv();
});
afterEach(async () => env.stop());

async function world(balanceSun = 1_000_000_000, options: { historyFailures?: number; sweepIntervalMs?: number } = {}) {
  const account = env.sim.createAccount({ balanceSun });
  const parts = await env.open();
  const drafts = createDraftStore({ store: parts.store, logger: env.logger });
  const now = () => Date.now();
  let historyFailures = options.historyFailures ?? 0;
  // A store fault right after the service accepted: the acceptance cannot be recorded.
  const history = {
    ...parts.history,
    add: (...args: Parameters<typeof parts.history.add>) =>
      historyFailures-- > 0 ? Promise.reject(new Error("store unavailable")) : parts.history.add(...args),
  };
  const placer = createOrderPlacer({ ...parts, history, service: env.service, now, logger: env.logger, sleep: async () => {} });
  const submitter = createBroadcastSubmitter({ ...parts, drafts, service: env.service, now, logger: env.logger });
  const outcomes: RecoveryOutcome[] = [];
  const recovery = createConfirmationRecovery({
    store: parts.store,
    jobs: createJobsEngine({ store: parts.store, queue: "local" }),
    pending: parts.pending,
    quotes: parts.quotes,
    drafts,
    placer,
    submitter,
    getApiKey: (chatId) => Promise.resolve(chatId === CHAT ? account.apiKey : undefined),
    onOutcome: (o) => Promise.resolve(void outcomes.push(o)),
    logger: env.logger,
    retryDelayMs: 10,
    maxRetryDelayMs: 20,
    ...(options.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: options.sweepIntervalMs, staleAfterMs: 0 }),
  });
  const pricing = await env.service.getPricing();

  /** A quote confirmed right before a crash: journaled and `placing`, the request maybe sent. */
  async function crashedQuote(): Promise<Quote> {
    const built = buildQuote(CHAT, [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, durationSec: 3600 }], pricing, now());
    if (!built.ok) throw new Error("quote");
    const quote: Quote = { ...built.quote, state: "placing", attempts: 1, messageId: 41 };
    await parts.quotes.save(quote);
    await parts.pending.add({ kind: "order", id: quote.quoteId, chatId: CHAT, sinceMs: now(), locale: "ru" });
    return quote;
  }

  async function crashedDraft() {
    const tx = signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 2_000_000, expirationMs: now() + 600_000 });
    const check = precheckBroadcast({ input: JSON.stringify(tx), nowMs: now(), baseUnitPriceSun: 100 });
    if (!check.ok) throw new Error(`draft: ${check.reason}`);
    const draft = await drafts.create(CHAT, tx as unknown as Record<string, unknown>, check.summary, now());
    await drafts.update(draft.draftId, (d) => ({ ...d, state: "submitting", messageId: 42 }));
    await parts.pending.add({ kind: "broadcast", id: draft.draftId, chatId: CHAT, sinceMs: now() });
    return { draft, tx };
  }

  return { account, parts, drafts, placer, submitter, recovery, outcomes, crashedQuote, crashedDraft };
}

describe("confirmation recovery at start-up", () => {
  it("places a quote left 'placing' whose request never arrived, once, and hands every order to tracking", async () => {
    const w = await world();
    const quote = await w.crashedQuote();
    await w.recovery.start();
    await w.recovery.settled();
    expect(debits(env.sim, w.account.accountId)).toEqual([Number(quote.totalSun)]);
    expect((await w.parts.quotes.get(quote.quoteId))?.state).toBe("placed");
    expect(await w.parts.pending.list()).toEqual([]);
    const orderId = (await w.parts.quotes.get(quote.quoteId))!.orders![0]!.orderId;
    // No card is being drawn: the tracker announces it on the quote message, in the chat's language.
    expect(w.parts.tracked).toEqual([{ chatId: CHAT, kind: "order", id: orderId, locale: "ru", cardMessageId: 41 }]);
  });

  it("replays a quote whose request was applied before the crash: the same orders, no second charge", async () => {
    const w = await world();
    const quote = await w.crashedQuote();
    // The service took it; every answer (the client's retries with the same key too) was lost.
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", kind: "reset", afterProcessing: true });
    const lost = await w.placer.place({ chatId: CHAT, quoteId: quote.quoteId, apiKey: w.account.apiKey });
    expect(lost.status).toBe("failed");
    expect((await w.parts.quotes.get(quote.quoteId))?.state).toBe("unknown");
    expect(debits(env.sim, w.account.accountId)).toEqual([Number(quote.totalSun)]);
    env.sim.faults.clear();
    await w.recovery.start();
    await w.recovery.settled();
    expect(debits(env.sim, w.account.accountId)).toEqual([Number(quote.totalSun)]);
    expect((await w.parts.quotes.get(quote.quoteId))?.state).toBe("placed");
    expect(w.parts.tracked).toHaveLength(1);
    expect(w.outcomes).toEqual([]);
  });

  it("tells the chat when the replay is refused for certain (402), with Retry, and charges nothing", async () => {
    const w = await world(1_000);
    const quote = await w.crashedQuote();
    await w.recovery.start();
    await w.recovery.settled();
    expect(debits(env.sim, w.account.accountId)).toEqual([]);
    expect(w.outcomes).toMatchObject([{ kind: "order", quoteId: quote.quoteId, result: "refused", retryable: true, locale: "ru" }]);
    expect(await w.parts.pending.list()).toEqual([]);
  });

  it("keeps an entry while the service cannot answer and resolves it once it can", async () => {
    const w = await world();
    const quote = await w.crashedQuote();
    env.sim.faults.inject({ method: "POST", path: "/v1/orders", times: 4, kind: "status", status: 503, code: "service_unavailable" });
    await w.recovery.start();
    try {
      await expect.poll(async () => (await w.parts.quotes.get(quote.quoteId))?.state, { timeout: 15_000 }).toBe("placed");
    } finally {
      await w.recovery.stop();
    }
    expect(debits(env.sim, w.account.accountId)).toEqual([Number(quote.totalSun)]);
    expect(await w.parts.pending.list()).toEqual([]);
  });

  it("resolves, without a restart, an order whose acceptance could not be recorded (a store fault)", async () => {
    const w = await world(1_000_000_000, { historyFailures: 1, sweepIntervalMs: 20 });
    await w.recovery.start();
    try {
      const pricing = await env.service.getPricing();
      const built = buildQuote(CHAT, [{ toAddress: TEST_KEYS.bob.address, amount: 100_000, durationSec: 3600 }], pricing, Date.now());
      if (!built.ok) throw new Error("quote");
      await w.parts.quotes.save(built.quote);
      await expect(w.placer.place({ chatId: CHAT, quoteId: built.quote.quoteId, apiKey: w.account.apiKey })).rejects.toThrow("store unavailable");
      expect(debits(env.sim, w.account.accountId)).toEqual([Number(built.quote.totalSun)]);
      await expect.poll(async () => (await w.parts.quotes.get(built.quote.quoteId))?.state, { timeout: 10_000 }).toBe("placed");
      expect(w.parts.tracked).toHaveLength(1);
      expect(debits(env.sim, w.account.accountId)).toEqual([Number(built.quote.totalSun)]);
      expect(await w.parts.pending.list()).toEqual([]);
    } finally {
      await w.recovery.stop();
    }
  });

  it("submits a draft left 'submitting' that the service never saw, and tracks the broadcast", async () => {
    const w = await world();
    const { draft } = await w.crashedDraft();
    await w.recovery.start();
    await w.recovery.settled();
    const after = await w.drafts.get(draft.draftId);
    expect(after?.state).toBe("submitted");
    expect(w.parts.tracked).toMatchObject([{ kind: "broadcast", id: after?.broadcastId, cardMessageId: 42 }]);
    expect(debits(env.sim, w.account.accountId)).toHaveLength(1);
  });

  it("finds a draft the service accepted before the crash through duplicate_tx, and charges nothing more", async () => {
    const w = await world();
    const { draft, tx } = await w.crashedDraft();
    const accepted = await env.service.createBroadcast(tx, w.account.apiKey);
    await w.recovery.start();
    await w.recovery.settled();
    expect((await w.drafts.get(draft.draftId))?.broadcastId).toBe(accepted.broadcastId);
    expect(w.parts.tracked).toMatchObject([{ kind: "broadcast", id: accepted.broadcastId }]);
    expect(debits(env.sim, w.account.accountId)).toHaveLength(1);
  });

  it("finds a draft whose acceptance reached the history in the history, without sending it again", async () => {
    const w = await world();
    const { draft, tx } = await w.crashedDraft();
    const accepted = await env.service.createBroadcast(tx, w.account.apiKey);
    await w.parts.history.add(CHAT, [
      { kind: "broadcast", id: accepted.broadcastId, createdAtMs: Date.now(), status: "pending_energy", txId: draft.summary.txId },
    ]);
    const posts = env.sim.requests.filter((r) => r.method === "POST").length;
    await w.recovery.start();
    await w.recovery.settled();
    expect(env.sim.requests.filter((r) => r.method === "POST").length).toBe(posts);
    expect((await w.drafts.get(draft.draftId))?.state).toBe("submitted");
    expect(w.parts.tracked).toMatchObject([{ kind: "broadcast", id: accepted.broadcastId }]);
  });

  it("never replays a confirmation under another account's key (the chat re-linked since)", async () => {
    const w = await world();
    const quote = await w.crashedQuote();
    await w.parts.pending.add({ kind: "order", id: quote.quoteId, chatId: CHAT, sinceMs: Date.now(), keyTag: keyTagOf("sk_the_key_it_was_sent_with") });
    await w.recovery.start();
    await w.recovery.settled();
    expect(debits(env.sim, w.account.accountId)).toEqual([]);
    expect(await w.parts.pending.list()).toEqual([]);
    expect((await w.parts.quotes.get(quote.quoteId))?.state).toBe("placing");
  });

  it("drops what a chat that unlinked since can no longer read, and what certainly charged nothing", async () => {
    const w = await world();
    const quote = await w.crashedQuote();
    await w.parts.pending.add({ kind: "order", id: quote.quoteId, chatId: 999, sinceMs: Date.now() });
    await w.parts.quotes.update(quote.quoteId, (q) => ({ ...q, state: "open" }));
    await w.recovery.start();
    await w.recovery.settled();
    expect(await w.parts.pending.list()).toEqual([]);
    expect(debits(env.sim, w.account.accountId)).toEqual([]);
  });
});
