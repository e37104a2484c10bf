import { run, type RunnerHandle } from "@grammyjs/runner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerCommands } from "../../src/bot/index.js";
import { QUICK_SERVICE_TIMEOUTS, useBotHarness } from "../support/bot-harness.js";

describe("the bot end to end with @grammyjs/runner polling getUpdates", () => {
  const h = useBotHarness({ serviceTimeouts: QUICK_SERVICE_TIMEOUTS });
  let runner: RunnerHandle | undefined;
  const startRunner = () => {
    runner = run(h.bot, { runner: { fetch: { timeout: 1 } } });
    return runner;
  };
  afterEach(async () => {
    h.sim.faults.clear();
    if (runner?.isRunning()) await runner.stop();
    runner = undefined;
  });

  it("registers the command menu per language (en, ru, zh and the default), private and groups", async () => {
    await registerCommands(h.bot);
    expect(h.tg.commands("ru", "all_private_chats")?.find((c) => c.command === "balance")?.description).toBe("Баланс и адрес для пополнения");
    expect(h.tg.commands("zh", "all_private_chats")?.find((c) => c.command === "send")?.description).toBe("用租来的能量从您的钱包发送 USDT");
    // The private menu is the everyday commands; the rest stay commands, listed in /help.
    expect(h.tg.commands("en", "all_private_chats")?.map((c) => c.command)).toEqual(["start", "balance", "order", "send", "orders", "keep", "prices", "help"]);
    expect(h.tg.commands("en", "all_group_chats")?.map((c) => c.command)).toEqual(["prices", "help", "system"]);
    expect(h.tg.commands("ru", "all_group_chats")?.map((c) => c.command)).toEqual(["prices", "help", "system"]);
    expect(h.tg.commands("", "all_private_chats")?.[0]?.description).toBe("Start and see what the bot can do");
    for (const lang of ["en", "ru", "zh"]) {
      expect(h.tg.commands(lang, "all_private_chats")?.map((c) => c.command)).toEqual(h.tg.commands("", "all_private_chats")?.map((c) => c.command));
    }
  });

  it("polls updates and answers them, a whole link flow included", async () => {
    startRunner();
    const { apiKey } = h.sim.createAccount({ balanceSun: 2_500_000 });
    const reply = h.tg.waitForBotMessage(1201, 5000, (m) => m.text.includes("Hello"));
    h.tg.enqueue(h.tg.text(1201, "/start", { languageCode: "en" }));
    expect((await reply).text).toContain("/link");

    // The flow is one card: its prompt becomes the next question, then the outcome.
    const linked = h.tg.waitForBotText(1201, 5000, (m) => m.text.includes("connected"));
    h.tg.enqueue(h.tg.text(1201, "/link"));
    h.tg.enqueue(h.tg.text(1201, apiKey));
    await h.tg.waitForBotText(1201, 5000, (m) => m.text.includes("webhook secret"));
    h.tg.enqueue(h.tg.press(1201, "Skip"));
    expect((await linked).text).toContain("2.5 TRX");
    expect(h.tg.history(1201).find((m) => m.text === apiKey)?.deleted).toBe(true);
    await runner!.stop();
    expect(h.tg.pendingUpdates()).toBeLessThanOrEqual(1);
  });

  it("handles the updates of one chat in order even when they arrive in one batch", async () => {
    const { apiKey, webhookSecret } = h.sim.createAccount({ balanceSun: 7_000_000 });
    // Queued before polling starts, so the runner receives all three at once.
    h.tg.enqueue(h.tg.text(1210, "/link", { languageCode: "en" }));
    h.tg.enqueue(h.tg.text(1210, apiKey));
    h.tg.enqueue(h.tg.text(1210, webhookSecret));
    const linked = h.tg.waitForBotText(1210, 5000, (m) => m.text.includes("connected"));
    startRunner();
    expect((await linked).text).toContain("7 TRX");
    expect(
      h.tg
        .history(1210)
        .filter((m) => m.from === "user" && m.deleted)
        .map((m) => m.text),
    ).toEqual([apiKey, webhookSecret]);
    expect(await h.deps.chats.getWebhookSecret(1210)).toBe(webhookSecret);
    expect(h.tg.botMessages(1210).some((m) => m.text.includes("did not understand"))).toBe(false);
  });

  it("waits out Telegram's 429 retry_after (auto-retry), inside a conversation too", async () => {
    const u = h.user(1230, { languageCode: "en" });
    await h.linkChat(u.chatId, { balanceSun: 1_000_000, depositAddress: "TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH" });
    const { apiKey } = h.sim.createAccount();
    h.tg.setRateLimits({ globalPerSecond: 30, perChatPerSecond: 1, perGroupPerMinute: 20 });
    try {
      await u.send("/balance"); // the balance card, then /link's prompt within the chat's second: that one hits the per-chat limit
      await u.send("/link");
      await u.send(apiKey); // "accepted" with the secret question, from inside the conversation
    } finally {
      h.tg.setRateLimits(false);
    }
    const refused = h.takeFailedCalls();
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((c) => c.errorCode === 429)).toBe(true);
    expect(u.botTexts().some((t) => t.includes("TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH"))).toBe(true);
    expect(u.lastText()).toContain("webhook secret");
    await u.press("Skip");
    expect(await h.deps.chats.getApiKey(u.chatId)).toBe(apiKey);
  });

  it("handles different chats in parallel: a slow chat does not hold up another", async () => {
    await h.linkChat(1220);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "hang" });
    startRunner();
    const slowAnswer = h.tg.waitForBotMessage(1220, 5000, (m) => m.text.includes("did not answer in time"));
    h.tg.enqueue(h.tg.text(1220, "/balance", { languageCode: "en" }));
    // /balance shows "typing…" just before it calls the (hanging) service.
    await vi.waitFor(() => expect(h.tg.callsOf("sendChatAction").some((c) => Number(c.params["chat_id"]) === 1220)).toBe(true));
    const fast = h.tg.waitForBotMessage(1221, 5000, (m) => m.text.includes("Hello"));
    h.tg.enqueue(h.tg.text(1221, "/start", { languageCode: "en" }));
    const fastMessage = await fast;
    // The other chat's answer came while the first chat still waited for the service.
    expect(h.tg.botMessages(1220)).toEqual([]);
    const slowMessage = await slowAnswer;
    expect(fastMessage.seq).toBeLessThan(slowMessage.seq);
  });
});
