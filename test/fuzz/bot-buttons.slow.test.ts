import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOrderHarness, type OrderHarness } from "../bot/order-harness.js";
import { fuzz, fuzzTimeoutMs, scaledRuns, binaryString } from "../support/fuzz.js";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";

/**
 * Forged and foreign buttons through the real bot (bot.handleUpdate against
 * the strict fake Bot API, the simulator and SQLite). Each case is a whole
 * update with store reads and Telegram calls (several ms), so this property
 * runs 300 cases by default (3,000 under `npm run fuzz`); the pure pack/unpack
 * layer gets 10,000 in callback-data.test.ts.
 */
const OWNER = 7001;
const ATTACKER = 7002;
const STRANGER = 7003;
const EXPIRED = new Set(["en", "ru", "zh"].map((l) => /^button-expired = (.*)$/m.exec(readFileSync(`locales/${l}/common.ftl`, "utf8"))![1]!));
const PREFIXES = ["q", "bd", "os", "ra", "hp", "hl", "hr", "tr", "tz", "settings", "lang", "webhook", "unlink", "link", "cancel"];

let h: OrderHarness;
let quoteId = "";
let draftId = "";
let ownerAccountId = "";

function buttonData(chatId: number, prefix: string): string {
  const data = h.tg
    .lastBotMessage(chatId)
    ?.buttons.flat()
    .map((b) => b.callback_data ?? "")
    .find((d) => d.startsWith(`${prefix}:`));
  if (data === undefined) throw new Error(`no ${prefix} button in chat ${chatId}`);
  return data;
}

describe("forged and foreign buttons through the bot (fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  beforeAll(async () => {
    h = await startOrderHarness();
    ownerAccountId = (await h.linkChat(OWNER, { balanceSun: 500_000_000 })).accountId;
    await h.linkChat(ATTACKER, { balanceSun: 500_000_000 });
    const owner = h.user(OWNER);
    await owner.send(`/order ${TEST_KEYS.carol.address} 100k 1h`);
    quoteId = buttonData(OWNER, "q").split(":")[1]!;
    await owner.send(
      JSON.stringify(
        signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 3_600_000 }),
      ),
    );
    draftId = buttonData(OWNER, "bd").split(":")[1]!;
    // The attacker has an order of its own (history, a tracking card), then a message to press buttons on.
    const attacker = h.user(ATTACKER);
    await attacker.send(`/order ${TEST_KEYS.dave.address} 100k 1h`);
    await attacker.press("✅ Confirm");
    await attacker.send("/settings");
    await h.user(STRANGER).send("/start");
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers every forged or foreign button, never with another chat's data, and never touches the owner's quote, draft or money", async () => {
    const ownerQuote = await h.flows.quotes.get(quoteId);
    const ownerDraft = await h.flows.drafts.get(draftId);
    const ownerView = () => JSON.stringify(h.tg.view(OWNER).map((m) => [m.messageId, m.text, m.buttons]));
    const ownerScreen = ownerView();
    const ledger = JSON.stringify(h.sim.ledger(ownerAccountId));
    const placing = () => h.sim.requests.filter((r) => r.method === "POST" && (r.path.startsWith("/v1/orders") || r.path.startsWith("/v1/broadcasts"))).length;
    const placedBefore = placing();
    expect(ownerQuote?.state).toBe("open");
    expect(ownerDraft?.state).toBe("open");

    const part = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom("c", "x", "r", "f", "o", "b", "0", "-1", "1e9", "NaN", "on", "off", "orders", "en", "ru", "yes", "rotate-yes", "skip", "order"),
      fc.stringMatching(/^[0-9a-f]{16,24}$/),
    );
    const data = fc.oneof(
      // The owner's own quote and draft, pressed from another chat, with any action.
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom("q", "bd"), part).map(([p, action]) => `${p}:${p === "q" ? quoteId : draftId}:${action}`) },
      // Every button family with one to three made-up fields (the families take one to three).
      {
        weight: 4,
        arbitrary: fc.tuple(fc.constantFrom(...PREFIXES), fc.array(part, { minLength: 1, maxLength: 3 })).map(([p, parts]) => [p, ...parts].join(":")),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 64 }) },
      // Longer than Telegram's 64 bytes: only a forged update carries that.
      { weight: 1, arbitrary: binaryString({ minLength: 65, maxLength: 400 }) },
    );
    // The owner's own quote or draft with an action no button carries: a forged button, not a Confirm.
    const bogus = part.filter((a) => !["c", "x", "r", "f"].includes(a));
    const ownerForged = fc
      .tuple(fc.constantFrom("q", "bd"), bogus)
      .map(([p, action]) => ({ data: `${p}:${p === "q" ? quoteId : draftId}:${action}`, from: OWNER }));
    const cases = fc.oneof({ weight: 4, arbitrary: fc.record({ data, from: fc.constantFrom(ATTACKER, STRANGER) }) }, { weight: 1, arbitrary: ownerForged });
    await fc.assert(
      fc.asyncProperty(cases, async ({ data: d, from }) => {
        const onScreen = h.tg.lastBotMessage(from)!.messageId;
        const ownerMessages = h.tg.view(OWNER).length;
        const sentBefore = h.tg.callsOf("sendMessage").length + h.tg.callsOf("editMessageText").length;
        const update: Update = h.tg.rawCallback(from, onScreen, d);
        await h.send(update);
        const answer = h.tg.answerOf(update);
        expect(answer, `unanswered: ${JSON.stringify(d)}`).toBeDefined();
        if (d.startsWith(`q:${quoteId}:`) || d.startsWith(`bd:${draftId}:`)) expect(EXPIRED.has(String(answer?.["text"]))).toBe(true);
        const texts = [...h.tg.callsOf("sendMessage"), ...h.tg.callsOf("editMessageText")].slice(sentBefore).map((c) => String(c.params["text"]));
        for (const t of texts) expect(t).not.toMatch(/NaN|undefined|\[object/);
        // "Not modified" is Telegram's answer to an edit of a stale button's message that changes nothing; the bot ignores it by design.
        const left = h.leftovers();
        expect({ ...left, failedCalls: left.failedCalls.filter((c) => !String(c.description).includes("message is not modified")) }).toEqual({
          failedCalls: [],
          errorLogs: [],
          unansweredCallbacks: [],
        });
        if (from === OWNER) expect(h.tg.view(OWNER).length).toBe(ownerMessages);
        expect(await h.flows.quotes.get(quoteId)).toEqual(ownerQuote);
        expect(await h.flows.drafts.get(draftId)).toEqual(ownerDraft);
        // A forged "unlink:yes" may unlink the attacker itself; link it again so the next case has a key.
        if (from === ATTACKER && !(await h.deps.chats.isLinked(ATTACKER))) await h.linkChat(ATTACKER);
      }),
      fuzz("bot: forged buttons", scaledRuns(300)),
    );
    expect(ownerView()).toBe(ownerScreen);
    expect(JSON.stringify(h.sim.ledger(ownerAccountId))).toBe(ledger);
    expect(placing()).toBe(placedBefore);
  });
});
