/**
 * kill -9 of the real bot process the moment the guided /order's amount
 * prompt, then its duration prompt, reaches Telegram (before the bot even
 * hears back), then a restart over the same store: the flow is found waiting
 * at the step the prompt asked for (stored before the prompt went out), so
 * "100k" is taken as the amount (not as a receiver) and "1h" as the duration
 * (not as an amount), and the quote holds the receiver, amount and duration
 * the user gave. The same for /batch killed as it asks for the missing
 * duration: "1h" is that duration, not a batch of one bad line; for the
 * /keep flow killed as it asks for the options; and for the address book
 * killed as it asks for the label.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, sqliteTarget, type StoreTarget } from "../app-harness.js";
import type { StoredMessage } from "../../testkit/fake-telegram/fake-telegram.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { startKillWorld, type BotProcess, type KillWorld } from "./kill-world.js";

const CHAT = 6363;

describe("kill -9 right after a guided /order prompt (SQLite)", () => {
  let target: StoreTarget;
  let w: KillWorld;
  let bot: BotProcess;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startKillWorld(target.url);
    bot = await w.startBot();
    await w.say(CHAT, `/link ${w.account.apiKey}`, (m) => /connected/i.test(m.text));
  }, 60_000);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  /**
   * Sends `text` and resolves with the first reply matching `prompt` or
   * `wrong`; on `prompt`, kills the bot within the fake Bot API's handling of
   * that send, before its answer goes back (whatever the bot meant to do after
   * the send never happens), and starts it again.
   */
  async function sayAndKillOnPrompt(text: string, prompt: string, wrong: string): Promise<StoredMessage> {
    const dying = bot;
    let killed = false;
    const shown = await w.say(CHAT, text, (m) => {
      if (m.text.includes(wrong)) return true;
      if (!m.text.includes(prompt)) return false;
      killed = true;
      process.kill(-dying.pid, "SIGKILL");
      return true;
    });
    if (killed) {
      await w.kill(dying);
      bot = await w.startBot();
    }
    return shown;
  }

  it("the restarted bot takes each answer for the step its prompt asked, and quotes what the user gave", { timeout: 120_000 }, async () => {
    await w.say(CHAT, "/order", (m) => m.text.includes("Who receives the energy?"));
    await sayAndKillOnPrompt(RECEIVER, "How much energy?", "not a valid TRON address");
    // Taken for the receiver step, "100k" would get "not a valid TRON address".
    const durationPrompt = await sayAndKillOnPrompt("100k", "For how long?", "not a valid TRON address");
    expect(durationPrompt.text).toContain("For how long?");
    // Taken for the amount step, "1h" would get "Send a whole number".
    const quote = await w.say(CHAT, "1h", (m) => m.text.includes("Your quote") || m.text.includes("Send a whole number"));
    expect(quote.text).toContain("Your quote");
    const stored = await w.quoteOf(w.quoteIdOf(quote));
    expect(stored?.items.map((i) => ({ toAddress: i.toAddress, amount: i.amount, durationSec: i.durationSec }))).toEqual([
      { toAddress: RECEIVER, amount: 100_000, durationSec: 3600 },
    ]);
    expect(w.botTexts(CHAT, /not a valid TRON address|Send a whole number/)).toEqual([]);
  });

  it("the restarted bot takes the duration a /batch asked for as that duration, not as the batch", { timeout: 120_000 }, async () => {
    const { alice, bob } = TEST_KEYS;
    await w.say(CHAT, "/batch", (m) => m.text.includes("one per line"));
    await sayAndKillOnPrompt(`${alice.address} 100k\n${bob.address} 70k`, "have no duration", "Nothing was sent");
    // Taken for the batch step, "1h" would get "Nothing was sent. Fix this line".
    const quote = await w.say(CHAT, "1h", (m) => m.text.includes("Quote for 2 orders") || m.text.includes("Nothing was sent"));
    expect(quote.text).toContain("Quote for 2 orders");
    const stored = await w.quoteOf(w.quoteIdOf(quote));
    expect(stored?.items.map((i) => ({ toAddress: i.toAddress, amount: i.amount, durationSec: i.durationSec }))).toEqual([
      { toAddress: alice.address, amount: 100_000, durationSec: 3600 },
      { toAddress: bob.address, amount: 70_000, durationSec: 3600 },
    ]);
  });

  it("the restarted bot takes the options a new /keep plan asked for as its options, not as the duration", { timeout: 120_000 }, async () => {
    const list = await w.say(CHAT, "/keep", (m) => m.buttons.flat().some((b) => b.text === "➕ New plan"));
    const receiverPrompt = w.tg.waitForBotMessage(CHAT, 30_000, (m) => m.text.includes("Who receives the energy?"));
    await w.tap(CHAT, "➕ New plan", list.messageId);
    await receiverPrompt;
    await w.say(CHAT, RECEIVER, (m) => m.text.includes("How much energy?"));
    await w.say(CHAT, "100k", (m) => m.text.includes("For how long?"));
    await sayAndKillOnPrompt("1h", "Any limits?", "Pick a duration");
    // Taken for the duration step, "cap=20" would get "Pick a duration".
    const proposal = await w.say(CHAT, "cap=20", (m) => m.text.includes("Keep charged") || m.text.includes("Pick a duration"));
    expect(proposal.text).toContain("Keep charged");
    expect(proposal.text).toContain("At most 20 TRX per day.");
  });

  it("the restarted bot takes the label the address book asked for as the label, not as an address", { timeout: 120_000 }, async () => {
    const { carol } = TEST_KEYS;
    const book = await w.say(CHAT, "/addresses", (m) => m.buttons.flat().some((b) => b.text === "➕ Add"));
    const addressPrompt = w.tg.waitForBotMessage(CHAT, 30_000, (m) => m.text.includes("Send the TRON address to save."));
    await w.tap(CHAT, "➕ Add", book.messageId);
    await addressPrompt;
    await sayAndKillOnPrompt(carol.address, "Send a label for", "Send another one");
    // Taken for the address step, "savings" would get "… Send another one".
    const saved = await w.say(CHAT, "savings", (m) => m.text.includes("Saved") || m.text.includes("Send another one"));
    expect(saved.text).toContain("Saved");
    expect(saved.text).toContain("savings");
    expect(saved.text).toContain(carol.address);
  });
});
