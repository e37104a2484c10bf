import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness, type BotHarness } from "../support/bot-harness.js";

interface Article {
  id: string;
  title: string;
  description: string;
  input_message_content: { message_text: string };
  reply_markup?: { inline_keyboard: { text: string; url?: string }[][] };
}

describe("inline price quotes", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterEach(() => {
    expect(h.tg.failedCalls()).toEqual([]);
    expect(h.errorLogs()).toEqual([]);
  });
  afterAll(async () => {
    await h.close();
  });

  async function ask(userId: number, query: string, languageCode?: string) {
    const update = h.tg.inlineQuery(userId, query, languageCode ? { languageCode } : {});
    await h.send(update);
    const answer = h.tg.answerOf(update)!;
    return { results: answer.results as Article[], button: answer.button as { text: string; start_parameter: string } | undefined };
  }

  it("an empty query quotes 100k for every tier, each with a deep link to order it", async () => {
    const { results } = await ask(7001, "");
    expect(results.map((r) => r.title)).toEqual([
      "1m: 10 TRX for 100,000 energy",
      "5m: 10 TRX for 100,000 energy",
      "15m: 11 TRX for 100,000 energy",
      "1h: 15 TRX for 100,000 energy",
    ]);
    expect(results[3]!.reply_markup!.inline_keyboard[0]![0]!.url).toBe("https://t.me/energy_test_bot?start=order_100000_3600");
  });

  it.each([
    ["100000", 4, "1m: 10 TRX for 100,000 energy"],
    ["100k 1h", 1, "1h: 15 TRX for 100,000 energy"],
    ["65,000 15m", 1, "15m: 7.15 TRX for 65,000 energy"],
    ["123457 5m", 1, "5m: 12.3457 TRX for 123,457 energy"],
  ])("%s -> the named tier (or all), total exact in TRX", async (query, count, firstTitle) => {
    const { results } = await ask(7002, query);
    expect(results).toHaveLength(count);
    expect(results[0]!.title).toBe(firstTitle);
    expect(results[0]!.input_message_content.message_text).toContain("<b>");
  });

  it("answers an out-of-range amount with the allowed range", async () => {
    const { results } = await ask(7003, "10k");
    expect(results).toHaveLength(1);
    expect(results[0]!.title).toContain("10,000 energy is outside");
    expect(results[0]!.description).toContain("50,000 to 200,000");
    expect(results[0]!.reply_markup).toBeUndefined();
  });

  it("explains a query it cannot read", async () => {
    const { results } = await ask(7004, "lots please");
    expect(results[0]!.title).toContain("100k 1h");
  });

  it("offers unlinked users the Connect button (start_parameter link); linked users do not get it", async () => {
    const unlinked = await ask(7005, "");
    expect(unlinked.button).toEqual({ text: "Connect your account", start_parameter: "link" });
    await h.linkChat(7006);
    const linked = await ask(7006, "");
    expect(linked.button).toBeUndefined();
  });

  it("speaks the user's language", async () => {
    const { results, button } = await ask(7007, "100k 1h", "ru");
    expect(results[0]!.title).toBe("1h: 15 TRX за 100\u00a0000 энергии");
    expect(button?.text).toBe("Подключить аккаунт");
  });

  it("many inline queries cost at most one pricing request per cache period", async () => {
    const pricingRequests = () => h.sim.requests.filter((r) => r.path === "/v1/public/pricing").length;
    const before = pricingRequests();
    for (let i = 0; i < 25; i += 1) await ask(7100 + i, `${50 + i}k`);
    expect(pricingRequests() - before).toBeLessThanOrEqual(1);
  });
});
