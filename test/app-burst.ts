/**
 * A burst of users against the whole app while the fake Bot API enforces
 * Telegram's send limits (test/app-telegram-limits*.test.ts): `chatCount`
 * private chats send /prices at one moment. Every chat is answered with the
 * price list, none with the bot's generic error, and the bot's answers are
 * paced so that Telegram has next to none to refuse (429), and a refused one
 * arrives late.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { failOnLoggedErrors, sqliteTarget, startAppWorld, waitFor, type AppWorld, type StoreTarget } from "./app-harness.js";

const PRICE_LIST = "Energy prices";
const ERROR_TEXT = "Something went wrong on my side";

/** `store`: where the app keeps its data (SQLite by default; a Redis target runs the BullMQ queue and the shared budget). */
export function appBurst(chatCount: number, firstChat: number, store: () => Promise<StoreTarget> = () => Promise.resolve(sqliteTarget())): void {
  let w: AppWorld;
  let target: StoreTarget;

  beforeAll(async () => {
    target = await store();
    w = await startAppWorld({ telegramLimits: true });
    await w.startApp(target);
  });

  afterAll(async () => {
    await w.close();
    await target.cleanup();
  });

  failOnLoggedErrors(() => w.logs);

  const boundMs = 60_000 + chatCount * 100;
  it(
    `answers each of ${chatCount} chats asking at once with its price list, none with an error, next to no send refused`,
    async () => {
      const chats = Array.from({ length: chatCount }, (_, i) => firstChat + i);
      for (const chat of chats) w.front.enqueue(w.tg.text(chat, "/prices"));
      // At Telegram's 30 messages a second the last answer leaves chatCount / 30 s after the first: a bound, never a timing.
      await waitFor(() => chats.every((chat) => w.tg.botMessages(chat).length > 0), "an answer in every chat", boundMs);

      const answers = chats.map((chat) => w.tg.botMessages(chat).map((m) => m.text));
      expect(answers.filter((texts) => texts.some((t) => t.includes(ERROR_TEXT))).length, "chats answered with the generic error").toBe(0);
      expect(answers.filter((texts) => texts.length === 1 && texts[0]!.includes(PRICE_LIST)).length, "chats answered with one price list").toBe(chatCount);
      // Paced to the limits, Telegram refuses next to nothing: a loaded machine can still bunch a few sends on their way
      // (unpaced, a fifth or more of them drew a 429). A refused one was waited out and sent again: its chat has its answer.
      const refused = w.tg.calls.filter((c) => c.errorCode === 429);
      expect(refused.length, "sends Telegram refused with 429").toBeLessThanOrEqual(chatCount / 100);
      for (const call of refused) expect(w.tg.botMessages(Number(call.params["chat_id"])), "the answer of a refused send").toHaveLength(1);
    },
    boundMs + 30_000,
  );
}
