import { describe, expect, it, vi } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

interface Article {
  id: string;
  title: string;
  description: string;
  input_message_content: { message_text: string };
  reply_markup?: { inline_keyboard: { text: string; url?: string }[][] };
}

describe("inline price quotes", () => {
  const h = useBotHarness();

  async function ask(userId: number, query: string, languageCode?: string) {
    const update = h.tg.inlineQuery(userId, query, languageCode ? { languageCode } : {});
    await h.send(update);
    const answer = h.tg.answerOf(update)!;
    return { results: answer["results"] as Article[], button: answer["button"] as { text: string; start_parameter: string } | undefined };
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

  // A query without a price gets a hint above no results: nothing that could be sent into the chat.
  it("answers an out-of-range amount with the allowed range, as a hint and no article", async () => {
    const { results, button } = await ask(7003, "10k");
    expect(results).toEqual([]);
    expect(button).toEqual({ text: "Energy per order: 50,000 to 200,000", start_parameter: "help" });
  });

  it("explains a query it cannot read", async () => {
    const { results, button } = await ask(7004, "lots please");
    expect(results).toEqual([]);
    expect(button?.text).toContain("100k 1h");
  });

  it("names an unknown duration and lists the available ones instead of the generic hint", async () => {
    const { results, button } = await ask(7009, "100k 2h");
    expect(results).toEqual([]);
    expect(button?.text).toBe('No duration "2h": choose 1m, 5m, 15m, or 1h');
    const ru = await ask(7010, "100k 45m", "ru");
    expect(ru.button?.text).toBe("Срока «45m» нет: выберите 1 мин, 5 мин, 15 мин или 1 ч");
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
    // The tier is named in Russian, as on the order buttons and in /prices.
    expect(results[0]!.title).toBe("1 ч: 15 TRX за 100\u00a0000 энергии");
    expect(button?.text).toBe("Подключить аккаунт");
  });

  it("answers an amount above the maximum with the allowed range", async () => {
    const { results, button } = await ask(7008, "250000 1h");
    expect(results).toEqual([]);
    expect(button?.text).toBe("Energy per order: 50,000 to 200,000");
  });
});

describe("inline price quotes and the pricing cache", () => {
  const h = useBotHarness();
  const pricingRequests = () => h.sim.requests.filter((r) => r.path === "/v1/public/pricing").length;
  const ask = (userId: number, query: string) => {
    const update = h.tg.inlineQuery(userId, query);
    return h.send(update).then(() => h.tg.answerOf(update)!["results"] as Article[]);
  };

  it("a burst of inline queries on a cold cache costs exactly one pricing request", async () => {
    expect(pricingRequests()).toBe(0);
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => ask(7200 + i, `${50 + i}k`)));
    expect(answers.every((results) => results.length === 4)).toBe(true);
    expect(pricingRequests()).toBe(1);
    for (let i = 0; i < 10; i += 1) await ask(7300 + i, "100k 1h");
    expect(pricingRequests()).toBe(1);
  });

  it("a new cache period costs one more request, and a new tier then appears in the quotes", async () => {
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 250 });
    h.deps.pricing.invalidate(); // the cache period is over
    const before = pricingRequests();
    await Promise.all(Array.from({ length: 10 }, (_, i) => ask(7400 + i, "")));
    await vi.waitFor(() => expect(h.deps.pricing.peek()?.tiers.map((t) => t.label)).toContain("2h"));
    expect(pricingRequests() - before).toBe(1);
    const results = await ask(7410, "100k 2h");
    expect(results.map((r) => r.title)).toEqual(["2h: 25 TRX for 100,000 energy"]);
    expect(results[0]!.input_message_content.message_text).toContain("100,000 energy for 2 h:");
    expect(pricingRequests() - before).toBe(1);
  });
});
