import { run, type RunnerHandle } from "@grammyjs/runner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerCommands } from "../../src/bot/index.js";
import { startBotHarness, type BotHarness } from "../support/bot-harness.js";

describe("the bot end to end with @grammyjs/runner polling getUpdates", () => {
  let h: BotHarness;
  let runner: RunnerHandle | undefined;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(async () => {
    if (runner?.isRunning()) await runner.stop();
    await h.close();
  });

  it("registers commands per language, polls updates and answers them, in order per chat", async () => {
    await registerCommands(h.bot);
    expect(h.tg.commands("ru", "all_private_chats")?.map((c) => c.command)).toContain("balance");
    expect(h.tg.commands("zh", "all_private_chats")?.find((c) => c.command === "link")?.description).toBe("绑定 API 密钥");
    expect(h.tg.commands("en", "all_group_chats")?.map((c) => c.command)).toEqual(["prices", "system", "help"]);
    expect(h.tg.commands("", "all_private_chats")?.[0]?.description).toBe("Start and see what the bot can do");

    runner = run(h.bot, { runner: { fetch: { timeout: 1 } } });
    const { apiKey } = h.sim.createAccount({ balanceSun: 2_500_000 });
    const reply = h.tg.waitForBotMessage(1201, 5000, (m) => m.text.includes("Hello"));
    h.tg.enqueue(h.tg.text(1201, "/start", { languageCode: "en" }));
    expect((await reply).text).toContain("/link");

    // A whole link flow through polling: the key message is deleted and the flow finishes.
    const linked = h.tg.waitForBotMessage(1201, 5000, (m) => m.text.includes("connected"));
    h.tg.enqueue(h.tg.text(1201, "/link"));
    h.tg.enqueue(h.tg.text(1201, apiKey));
    await h.tg.waitForBotMessage(1201, 5000, (m) => m.text.includes("webhook secret"));
    h.tg.enqueue(h.tg.press(1201, "Skip"));
    expect((await linked).text).toContain("2.5 TRX");
    expect(h.tg.history(1201).find((m) => m.text === apiKey)?.deleted).toBe(true);
    expect(h.tg.failedCalls()).toEqual([]);
    await runner.stop();
    expect(h.tg.pendingUpdates()).toBeLessThanOrEqual(1);
  });
});
