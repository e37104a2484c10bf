/**
 * Every message the bot puts in a chat passes its Telegram budget once: the
 * features' replies through bot.api, and a conversation's, whose ctx.api the
 * conversations plugin builds anew (src/bot/index.ts installs the pacing there too).
 */
import { describe, expect, it } from "vitest";
import { createBot } from "../../src/bot/index.js";
import { MESSAGE_METHODS } from "../../src/bot/middlewares/telegram-pacing.js";
import { createLocalTelegramBudget, type TelegramBudget } from "../../src/platform/push/telegram-budget.js";
import { useBotHarness } from "../support/bot-harness.js";

describe("the Telegram budget sees every message of a conversation", () => {
  const taken: (number | undefined)[] = [];
  const local = createLocalTelegramBudget({ limits: { perChatPerSecond: 20, marginMs: 0 } });
  const budget: TelegramBudget = {
    ...local,
    take(chatId, signal) {
      taken.push(chatId);
      return local.take(chatId, signal);
    },
  };
  const h = useBotHarness({ build: (deps, options) => createBot(deps, { ...options, budget }) });

  it("counts each message of the guided /link once, prompts, edits and the conversation's own answers alike", async () => {
    const u = h.user(7_301, { languageCode: "en" });
    const { apiKey, webhookSecret } = h.sim.createAccount();
    await u.send("/link");
    await u.send("not a key at all");
    await u.send(apiKey);
    await u.send(webhookSecret);
    expect(u.lastText()).toContain("connected");

    const messageCalls = h.tg.calls.filter((c) => MESSAGE_METHODS.has(c.method) && Number(c.params["chat_id"]) === u.chatId);
    expect(messageCalls.length).toBeGreaterThan(3);
    expect(taken.filter((chatId) => chatId === u.chatId)).toHaveLength(messageCalls.length);
  });
});
