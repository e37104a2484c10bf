/**
 * The longest inputs a user can send, fed into every text-taking command and
 * every step of the flows: each one gets an answer Telegram accepts (the fake
 * Bot API refuses a text over 4,096 characters after entity parsing, as
 * Telegram does), and a quoted value is cut to about 64 characters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOT_COMMANDS } from "../../src/bot/register-commands.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { closeChecked, startOrderHarness, type OrderHarness } from "./order-harness.js";

const { alice: A } = TEST_KEYS;
/** Telegram's own limit for a message a user sends. */
const MAX = 4096;
const fill = (prefix: string, char = "x") => prefix + char.repeat(MAX - prefix.length);

let h: OrderHarness;
beforeAll(async () => {
  h = await startOrderHarness();
});
afterAll(async () => {
  await closeChecked(h);
});

/** Sends each text, and after each one asserts Telegram refused nothing and the bot answered. */
async function sweep(chatId: number, texts: readonly string[], before?: () => Promise<void>): Promise<void> {
  const user = h.user(chatId, { languageCode: "en" });
  for (const text of texts) {
    await before?.();
    const answered = user.botTexts().length;
    await user.send(text);
    expect({ text: text.slice(0, 40), failed: h.tg.failedCalls() }).toEqual({ text: text.slice(0, 40), failed: [] });
    expect(h.errorLogs()).toEqual([]);
    expect(user.botTexts().length, `no answer to ${text.slice(0, 40)}`).toBeGreaterThan(answered);
    expect(Math.max(...user.botTexts().map((t) => t.length))).toBeLessThanOrEqual(MAX);
  }
  await user.send("/cancel");
}

describe("the longest inputs", () => {
  it("a 4,096-character argument to /order gets a clear error with the value cut short", async () => {
    await h.linkChat(7101);
    const user = h.user(7101, { languageCode: "en" });
    await user.send(`/order ${"x".repeat(MAX - 20)} 100k 1h`);
    expect(h.tg.failedCalls()).toEqual([]);
    expect(user.lastText()).toMatch(/^“x{63}…” is not a valid TRON address/);
    await user.send(fill(`/order ${A.address} `, "9"));
    expect(user.lastText()).toMatch(/^“9{63}…” is not an amount/);
    await user.send(fill(`/order ${A.address} 100k `, "h"));
    expect(user.lastText()).toMatch(/^Unknown duration h{63}…\./);
    expect(h.tg.failedCalls()).toEqual([]);
  });

  it("the cut never splits an emoji or an HTML entity", async () => {
    await h.linkChat(7106);
    const user = h.user(7106, { languageCode: "en" });
    await user.send(`/order ${"😀".repeat(100)} 100k 1h`);
    expect(user.lastText()).toMatch(new RegExp(`^“(?:😀){63}…” is not a valid TRON address`, "u"));
    await user.send(`/order T${"<&".repeat(100)} 100k 1h`);
    expect(user.last()!.rawText).toContain(`“T${"&lt;&amp;".repeat(31)}…”`);
    expect(h.tg.failedCalls()).toEqual([]);
  });

  it("a 30-line batch of 200-digit amounts lists the first bad lines and counts the rest", async () => {
    await h.linkChat(7102);
    const user = h.user(7102, { languageCode: "en" });
    const lines = Array.from({ length: 30 }, () => `${A.address},${"7".repeat(200)},1h`).join("\n");
    await user.send("/batch");
    await user.document({ bytes: lines, fileName: "orders.csv", mimeType: "text/csv" });
    expect(h.tg.failedCalls()).toEqual([]);
    const report = user.lastText();
    expect(report).toContain("Nothing was sent. Fix these 30 lines");
    expect(report).toContain(`Line 1: “${"7".repeat(63)}…” is not a whole amount`);
    expect(report).toMatch(/…and \d+ more\.$/);
    expect(report.length).toBeLessThan(MAX);
    await user.send(lines);
    expect(h.tg.failedCalls()).toEqual([]);
    expect(user.lastText()).toMatch(/…and \d+ more\.$/);
    await user.send("/cancel");
  });

  it("every command, with the longest argument, is answered within Telegram's limits", async () => {
    await h.linkChat(7103);
    const texts = BOT_COMMANDS.flatMap((c) => [fill(`/${c.command} `), fill(`/${c.command} `, "9"), fill(`/${c.command} `, "я"), fill(`/${c.command} `, "<")]);
    await sweep(7103, texts, async () => {
      // A command may open a flow (/link, /batch…): each text starts from no flow.
      await h.send(h.tg.text(7103, "/cancel"));
    });
  });

  it("every step of the order, batch, broadcast, link and webhook flows answers the longest text", async () => {
    await h.linkChat(7104);
    const long = [fill(""), fill("", "9"), fill("", "<"), "😀".repeat(MAX / 2), Array.from({ length: 100 }, () => "x".repeat(39)).join("\n")];
    const user = h.user(7104, { languageCode: "en" });
    const step = async (opening: string[], texts: string[]) => {
      for (const text of texts) {
        await user.send("/cancel");
        for (const o of opening) await user.send(o);
        await sweep(7104, [text]);
      }
    };
    await step(["/order"], long);
    await step(["/order", A.address], long);
    await step(["/order", A.address, "100000"], long);
    await step(["/batch"], long);
    await step(["/broadcast"], long);
    await step(["/link"], long);
    await step(["/webhook"], long);
    await step([], long);
  });

  it("documents with the longest captions are answered within Telegram's limits", async () => {
    await h.linkChat(7107);
    const user = h.user(7107, { languageCode: "en" });
    const caption = "9".repeat(1024);
    const bad = Array.from({ length: 100 }, (_, i) => `T${"x".repeat(33)}${i},${"8".repeat(200)},${"h".repeat(200)}`).join("\n");
    for (const opening of [[], ["/order"], ["/batch"], ["/broadcast"]]) {
      await user.send("/cancel");
      for (const o of opening) await user.send(o);
      await user.document({ bytes: bad, fileName: "orders.csv", mimeType: "text/csv", caption });
      await user.document({ bytes: "{".repeat(5000), fileName: "tx.json", mimeType: "application/json", caption });
      expect(h.tg.failedCalls()).toEqual([]);
    }
    expect(Math.max(...user.botTexts().map((t) => t.length))).toBeLessThanOrEqual(MAX);
  });

  it("an inline query of 256 characters is answered", async () => {
    const update = h.tg.inlineQuery(7105, `100k ${"9".repeat(250)}h`);
    await h.send(update);
    expect(h.tg.failedCalls()).toEqual([]);
    expect(JSON.stringify(h.tg.answerOf(update))).toContain(`No duration \\"${"9".repeat(63)}…`);
  });
});
