/**
 * One I18n instance serves the bot's replies, the notifiers (tracking, top-up)
 * and the command menu: with the translations read from another directory,
 * every one of them speaks from it. Before, the notifiers and the menu each
 * built their own instance over the repository's locales/ and missed it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCALES_DIRECTORY } from "../../src/bot/i18n.js";
import { registerCommands } from "../../src/bot/register-commands.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { useOrderHarness, type OrderHarness } from "./order-harness.js";

const CHAT = 5901;
const BOB = TEST_KEYS.bob.address;
const MARK = "[shared]";

/** A copy of locales/ whose English texts of one reply, one notification of each kind and one menu entry carry MARK. */
function markedLocales(): string {
  const dir = mkdtempSync(join(tmpdir(), "locales-"));
  cpSync(LOCALES_DIRECTORY, dir, { recursive: true });
  const mark = (file: string, from: string, to: string): void => {
    const path = join(dir, "en", file);
    const text = readFileSync(path, "utf8");
    if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
    writeFileSync(path, text.replace(from, to));
  };
  mark("start.ftl", "help-title-private = ", `help-title-private = ${MARK} `);
  mark("common.ftl", ".description = How to use the bot", `.description = ${MARK} How to use the bot`);
  mark("tracking.ftl", "tracking-order-fulfilled = ", `tracking-order-fulfilled = ${MARK} `);
  mark("topup.ftl", "topup-credited-confirm = ", `topup-credited-confirm = ${MARK} `);
  return dir;
}

const localesDirectory = markedLocales();
afterAll(() => rmSync(localesDirectory, { recursive: true, force: true }));

describe("one I18n instance for the bot, the notifiers and the command menu", () => {
  let h: OrderHarness;
  useOrderHarness((started) => (h = started), { localesDirectory });

  it("the bot's reply and the command menu come from the same translations", async () => {
    const alice = h.user(CHAT);
    await alice.send("/help");
    expect(alice.lastText()).toContain(`${MARK} What I can do`);
    await registerCommands(h.bot);
    const help = h.tg.commands("en", "all_private_chats")?.find((c) => c.command === "help");
    expect(help?.description).toBe(`${MARK} How to use the bot`);
  });

  it("the tracking notifier's final message comes from the same translations", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    await alice.press("✅ Confirm");
    await h.until(() => alice.botTexts().some((t) => t.includes("is fulfilled")));
    expect(alice.botTexts().filter((t) => t.includes("is fulfilled"))).toEqual([expect.stringMatching(/^\[shared\] ✅ Order [0-9a-f]{24} is fulfilled/)]);
  });

  it("the top-up notifier's announcement comes from the same translations", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 10_000_000, depositAddress: TEST_KEYS.erin.address });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100k 1h`);
    expect(h.sim.deposit(account.accountId, 10_000_000)).toBe(true);
    await h.until(() => alice.botTexts().some((t) => t.includes("Top-up credited")));
    expect(alice.last()?.text).toBe(`${MARK} 💰 Top-up credited: your balance is 20 TRX, enough for this order (15 TRX). Tap Confirm to place it.`);
  });
});
