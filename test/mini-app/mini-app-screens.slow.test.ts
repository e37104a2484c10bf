/**
 * The Mini App's Spend, Limits, Addresses and Keep charged screens in headless Chromium (docs/mini-app.md),
 * against the bot on loopback and the simulator: each change made in the app is read back from the chat's
 * own commands (/limits, /addresses, the plan's card), each amount to the sun. Screenshots land in
 * MINI_APP_SCREENSHOTS when it is set.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "../../testkit/browser.js";
import { DARK_THEME, LIGHT_THEME, launchUrl } from "../../testkit/mini-app-launch.js";
import { waitFor } from "../app-harness.js";
import { initFor, RECEIVER, useMiniAppBrowser } from "./mini-app-browser.js";

const SHOTS = process.env["MINI_APP_SCREENSHOTS"];
const OTHER = "TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk";

describe.skipIf(!chromiumAvailable())("the Mini App's screens in Chromium (skipped without /usr/bin/chromium)", () => {
  const m = useMiniAppBrowser();
  const { linkedChat } = m;

  /** Opens the app; with `mainButton` a stand-in for Telegram's SDK object that has a MainButton. */
  async function open(url: string, options: { mainButton?: boolean } = {}) {
    const context = await m.browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    const offHost: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith("http://127.0.0.1:") && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) offHost.push(r.url());
    });
    if (options.mainButton) {
      await page.addInitScript(() => {
        const calls: string[] = [];
        let main: (() => void) | undefined;
        Object.assign(globalThis, {
          __calls: calls,
          __pressMain: () => main?.(),
          Telegram: {
            WebApp: {
              ready: () => calls.push("ready"),
              openLink: (url: string) => calls.push(`openLink ${url}`),
              expand: () => calls.push("expand"),
              onEvent: () => undefined,
              BackButton: { show: () => calls.push("back:show"), hide: () => calls.push("back:hide"), onClick: () => undefined, offClick: () => undefined },
              MainButton: {
                setText: (text: string) => calls.push(`main:text ${text}`),
                show: () => calls.push("main:show"),
                hide: () => calls.push("main:hide"),
                enable: () => undefined,
                onClick: (cb: () => void) => void (main = cb),
                offClick: () => undefined,
              },
            },
          },
        });
      });
    }
    await page.goto(url);
    return { page, offHost, close: () => context.close() };
  }

  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  it("Spend: the month's bars from /statement's own numbers, a tapped day's lines to the sun, months back and forth", async () => {
    const { w, base, ids } = await linkedChat(7701, "en", 3);
    const { page, offHost, close } = await open(launchUrl(`${base}/app?screen=spend`, initFor(w, 7701, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#spend-chart").count()).toBe(1);
    const days = page.locator("#spend-chart .chart-day");
    const dayCount = await days.count();
    expect(dayCount).toBeGreaterThanOrEqual(28);
    // Today's bar holds the three orders; every other day is 0.
    // Read in the page as a string: the project's types carry no DOM.
    const suns: [number, string][] = await page.evaluate(
      `[...document.querySelectorAll("#spend-chart .chart-day")].map((g) => [Number(g.getAttribute("data-day")), g.getAttribute("data-sun")])`,
    );
    const today = suns.find(([, sun]) => sun !== "0")!;
    expect(suns.filter(([, sun]) => sun !== "0")).toHaveLength(1);
    expect(await page.locator("#spend-chart .chart-bar").count()).toBe(1);
    expect(await page.locator("#spend-chart .chart-bar").getAttribute("fill")).toBe("#d9453d");
    expect(await page.locator("#spend-chart .chart-title").textContent()).toMatch(/ · TRX per day$/);

    await page.locator(`#spend-chart .chart-day[data-day="${today[0]}"]`).click();
    await expect.poll(() => page.locator("#day-lines li").count()).toBe(3);
    const lines: [string, string][] = await page.evaluate(
      `[...document.querySelectorAll("#day-lines li")].map((li) => [li.getAttribute("data-id"), li.getAttribute("data-cost-sun")])`,
    );
    expect(lines.map(([id]) => id).sort()).toEqual([...ids].sort());
    // The day's bar is the sum of its lines, exact.
    expect(lines.reduce((sum, [, sun]) => sum + BigInt(sun), 0n).toString()).toBe(today[1]);
    // Each line's cost is the history's own.
    const api = (await (await fetch(`${base}/app/api/history?filter=o&page=0`, { headers: { "X-Telegram-Init-Data": initFor(w, 7701, "en") } })).json()) as {
      rows: { id: string; costSun: string }[];
    };
    for (const [id, sun] of lines) expect(api.rows.find((r) => r.id === id)?.costSun).toBe(sun);
    expect(await page.locator("#spend-summary").textContent()).toContain("Estimated saving against burning TRX");
    await shot(page, "mini-app-en-spend");

    await page.locator("#spend-prev").click();
    await expect.poll(() => page.locator("#spend-empty").textContent()).toContain("No orders, broadcasts or refunds in");
    expect(await page.locator("#spend-next").isDisabled()).toBe(false);
    await page.locator("#spend-next").click();
    await expect.poll(() => page.locator("#spend-chart").count()).toBe(1);
    expect(await page.locator("#spend-next").isDisabled()).toBe(true);
    expect(offHost).toEqual([]);
    await close();
  });

  for (const [language, chat, words] of [
    ["ru", 7702, { tab: "Расходы", day: "День", summary: "Итого потрачено" }],
    ["zh", 7703, { tab: "支出", day: "日", summary: "燃烧" }],
  ] as const) {
    it(`Spend speaks the chat's language (${language})`, async () => {
      const { w, base } = await linkedChat(chat, language, 1);
      const { page, close } = await open(launchUrl(`${base}/app?screen=spend`, initFor(w, chat, language), DARK_THEME));
      await expect.poll(() => page.locator("#spend-chart").count()).toBe(1);
      expect(await page.locator("h1").textContent()).toBe(words.tab);
      expect(await page.locator("#spend-chart").textContent()).toContain(words.day);
      await page.locator("#spend-chart .chart-bar").click();
      await expect.poll(() => page.locator("#day-lines li").count()).toBe(1);
      expect(await page.locator("#spend-summary").textContent()).toContain(words.summary);
      await shot(page, `mini-app-${language}-spend`);
      await page.locator('[data-tab="limits"]').click();
      await expect.poll(() => page.locator("#limits-card").count()).toBe(1);
      await shot(page, `mini-app-${language}-limits`);
      await page.locator('[data-tab="addresses"]').click();
      await expect.poll(() => page.locator("#addresses li").count()).toBeGreaterThanOrEqual(0);
      await page.locator("#address-add").waitFor();
      await shot(page, `mini-app-${language}-addresses`);
      await close();
    });
  }

  it("Limits: presets, a custom amount read as /limits reads it, refusals in the chat's words, freeze and unfreeze, Save on Telegram's main button", async () => {
    const { w, base } = await linkedChat(7704, "en", 0);
    const { page, close } = await open(launchUrl(`${base}/app?screen=limits`, initFor(w, 7704, "en"), LIGHT_THEME), { mainButton: true });
    await expect.poll(() => page.locator("#limits-card").count()).toBe(1);
    await page.locator('#limit-d [data-sun="25000000"]').click();
    await expect.poll(() => page.locator("#limit-d-value").getAttribute("data-sun")).toBe("25000000");
    expect(await page.locator("#limits-result").textContent()).toBe("✅ Saved.");

    await page.locator('#limit-m [data-custom="m"]').click();
    await page.locator("#limit-input").fill("abc");
    // Telegram's main button carries Save; the page's own is hidden.
    expect(await page.locator("#limit-save").isHidden()).toBe(true);
    await page.evaluate("window.__pressMain()");
    await expect.poll(() => page.locator("#limit-error").textContent()).toContain("“abc” is not an amount in TRX");
    await page.locator("#limit-input").fill("1,234.567891");
    await page.evaluate("window.__pressMain()");
    await expect.poll(() => page.locator("#limit-m-value").getAttribute("data-sun")).toBe("1234567891");
    const calls: string[] = await page.evaluate("window.__calls");
    expect(calls).toContain("main:text Save");
    expect(calls.at(-1)).toBe("main:hide");

    await page.locator('#limit-t [data-clear="t"]').click();
    await page.locator("#freeze").click();
    await expect.poll(() => page.locator("#freeze").getAttribute("data-frozen")).toBe("true");
    await shot(page, "mini-app-en-limits");
    // The chat's /limits reads what the app set.
    const card = await w.say(7704, "/limits", (m) => m.text.includes("Frozen"));
    expect(card.text).toContain("25 TRX");
    expect(card.text).toContain("1,234.567891 TRX");
    await page.locator("#freeze").click();
    await expect.poll(() => page.locator("#freeze").getAttribute("data-frozen")).toBe("false");
    await w.say(7704, "/limits", (m) => m.text.includes("Spending is allowed within these limits"));
    await close();
  });

  it("Addresses: add, the book's refusals, rename and remove, as /addresses sees them", async () => {
    const { w, base } = await linkedChat(7705, "en", 0);
    const { page, close } = await open(launchUrl(`${base}/app?screen=addresses`, initFor(w, 7705, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#addresses-empty").count()).toBe(1);
    await page.locator("#address-add").click();
    await page.locator("#address-input").fill("Tnotanaddress");
    await page.locator("#label-input").fill("Shop");
    await page.locator("#address-save").click();
    await expect.poll(() => page.locator("#address-error").textContent()).toBe("“Tnotanaddress” is not a valid TRON address.");
    await page.locator("#address-input").fill(RECEIVER);
    await page.locator("#address-save").click();
    await expect.poll(() => page.locator("#addresses li").count()).toBe(1);
    await page.locator("#address-add").click();
    await page.locator("#address-input").fill(OTHER);
    await page.locator("#label-input").fill("shop");
    await page.locator("#address-save").click();
    await expect.poll(() => page.locator("#address-error").textContent()).toContain("already names another address");
    await page.locator("#label-input").fill("Cold wallet");
    await page.locator("#address-save").click();
    await expect.poll(() => page.locator("#addresses li").count()).toBe(2);
    await page.locator(`[data-rename="${RECEIVER}"]`).click();
    await page.locator("#label-input").fill("Main shop");
    await page.locator("#address-save").click();
    await expect.poll(() => page.locator("#addresses-result").textContent()).toBe("Saved: Main shop.");
    await shot(page, "mini-app-en-addresses");
    const list = await w.say(7705, "/addresses", (m) => m.text.includes("Main shop"));
    expect(list.text).toContain("Cold wallet");
    await page.locator(`[data-remove="${OTHER}"]`).click();
    expect(await page.locator("#addresses li").count()).toBe(2);
    await page.locator(`[data-remove="${OTHER}"]`).click();
    await expect.poll(() => page.locator("#addresses li").count()).toBe(1);
    await w.say(7705, "/addresses", (m) => m.text.includes("Main shop") && !m.text.includes("Cold wallet"));
    await close();
  });

  it("Keep charged: the plan's digest, Pause, Resume and Stop through the chat's own actions", async () => {
    const { w, base } = await linkedChat(7706, "en", 0);
    const proposal = await w.say(7706, `/keep ${RECEIVER} 65k 1h`, (m) => m.text.includes("Keep charged"));
    w.front.enqueue(w.tg.press(7706, "✅ Start", { messageId: proposal.messageId }));
    await waitFor(() => w.textOf(7706, proposal.messageId).includes("Plan: keep charged"), "the plan's card");
    const { page, close } = await open(launchUrl(`${base}/app?screen=keep`, initFor(w, 7706, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#plans li").count()).toBe(1);
    expect(await page.locator("#plans li").getAttribute("data-state")).toBe("active");
    await page.locator('[data-action="pause"]').click();
    await expect.poll(() => page.locator("#plans li").getAttribute("data-state")).toBe("paused");
    expect(await page.locator("#keep-result").textContent()).toBe("Paused.");
    await waitFor(() => /Paused|paused/.test(w.textOf(7706, proposal.messageId)), "the plan's card in the chat paused");
    await shot(page, "mini-app-en-keep");
    await page.locator('[data-action="resume"]').click();
    await expect.poll(() => page.locator("#plans li").getAttribute("data-state")).toBe("active");
    await page.locator('[data-action="stop"]').click();
    await expect.poll(() => page.locator("#plans li").getAttribute("data-state")).toBe("stopped");
    expect(await page.locator("[data-action]").count()).toBe(0);
    await close();
  });
  it("Keep charged: a plan made in the New plan form, its card in the chat and its first order placed, then edited", async () => {
    const { w, base } = await linkedChat(7707, "en", 0);
    await w.say(7707, `/addresses add ${RECEIVER} Main shop`, (m) => m.text.length > 0);
    // The plan renews only between 09:00 and 18:00 of the chat's zone: a zone where it is midday now, so its first
    // order is due at once whatever the hour of the run.
    const offset = 12 - new Date().getUTCHours();
    const zone = `UTC${offset < 0 ? "-" : "+"}${Math.abs(offset)}`;
    const shows = (what: (m: { text: string; buttons: { text: string }[][] }) => boolean) => () => w.tg.botMessages(7707).some(what);
    await w.say(7707, "/settings", (m) => m.buttons.flat().some((b) => b.text.startsWith("🕒 Time zone")));
    w.front.enqueue(w.tg.press(7707, /^🕒 Time zone/));
    await waitFor(
      shows((m) => m.buttons.flat().some((b) => b.text === "🔎 Type a city")),
      "the zone picker",
    );
    w.front.enqueue(w.tg.press(7707, "🔎 Type a city"));
    await waitFor(
      shows((m) => m.text.includes("Send the name of your city")),
      "the question for a city",
    );
    await w.say(7707, zone, (m) => m.text.includes("Time zone set"));
    const { page, close } = await open(launchUrl(`${base}/app?screen=keep`, initFor(w, 7707, "en"), DARK_THEME));
    await page.locator("#keep-new").click();
    await expect.poll(() => page.locator("#keep-proposal-text").count()).toBe(1);
    // The receiver from the book, the chat's presets for the limits, and the proposal in the chat's words.
    expect(await page.locator("#keep-book button").first().textContent()).toBe("Main shop");
    await page.locator('#keep-hours [data-value="h"]').click();
    await expect.poll(() => page.locator("#keep-proposal-text").textContent()).toContain("Renews only between 09:00–18:00");
    await page.locator("#keep-caps button").first().click();
    await expect.poll(() => page.locator("#keep-proposal-text").textContent()).toMatch(/cap of [\d,]+ TRX/);
    await page.locator('#keep-until [data-value="d"]').click();
    await expect.poll(() => page.locator("#keep-proposal-text").textContent()).toContain("Runs until");
    await page.waitForLoadState("networkidle");
    await shot(page, "mini-app-en-keep-new");
    const proposal = (await page.locator("#keep-proposal-text").textContent()) ?? "";
    await page.locator("#keep-start").click();
    await expect.poll(() => page.locator("#keep-result").textContent()).toBe("Plan started: its card is in the chat.");
    // One card in the chat, with the first order the simulator placed.
    await waitFor(() => w.botTexts(7707, /Plan: keep charged[\s\S]*Orders placed: 1/).length === 1, "the plan's card with its first order");
    expect(w.botTexts(7707, /Plan: keep charged/)).toHaveLength(1);
    const card = w.botTexts(7707, /Plan: keep charged/)[0]!;
    expect(card).toContain(proposal.split("\n")[1]!);
    const orderId = await waitFor(() => /([0-9a-f]{24})/.exec(w.botTexts(7707, /Plan: keep charged/)[0] ?? "")?.[1], "the card's order");
    const order = await fetch(`${w.sim.baseUrl}/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } });
    expect(order.status).toBe(200);
    expect(JSON.stringify(await order.json())).toContain(RECEIVER);

    // Edit: working hours off, a cap of 200 TRX; the card in the chat follows.
    await expect.poll(() => page.locator("#plans li").count()).toBe(1);
    await page.locator("[data-edit]").click();
    await expect.poll(() => page.locator("#keep-proposal-text").count()).toBe(1);
    expect(await page.locator('#keep-edit-hours [data-value="h"]').getAttribute("aria-pressed")).toBe("true");
    await page.locator('#keep-edit-hours [data-value="h"]').click();
    await expect.poll(() => page.locator('#keep-edit-hours [data-value="h"]').getAttribute("aria-pressed")).toBe("false");
    await expect.poll(() => page.locator("#keep-proposal-text").textContent()).not.toContain("Renews only between");
    await shot(page, "mini-app-en-keep-edit");
    await page.locator("#keep-save").click();
    await expect.poll(() => page.locator("#keep-result").textContent()).toBe("Limits saved: the plan's card in the chat shows them.");
    await waitFor(() => w.botTexts(7707, /Plan: keep charged/).some((text) => !text.includes("Renews only between")), "the card without the hours");
    await close();
  });

  it("Keep charged in ru and zh: the New plan form in the chat's language", async () => {
    const { w, base } = await linkedChat(7708, "ru", 0);
    w.tg.addChat(7709, { languageCode: "zh" });
    await w.say(7709, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    for (const [chat, lang] of [
      [7708, "ru"],
      [7709, "zh"],
    ] as const) {
      const { page, close } = await open(launchUrl(`${base}/app?screen=keep`, initFor(w, chat, lang), LIGHT_THEME));
      await page.locator("#keep-new").click();
      await page.locator("#keep-receiver").fill(RECEIVER);
      await page.locator("#keep-receiver").dispatchEvent("change");
      await expect.poll(() => page.locator("#keep-proposal-text").count()).toBe(1);
      await page.locator('#keep-until [data-value="t"]').click();
      await expect.poll(() => page.locator('#keep-until [data-value="t"]').getAttribute("aria-pressed")).toBe("true");
      await shot(page, `mini-app-${lang}-keep-new`);
      await close();
    }
  });

  it("History: the Refunds filter and a receiver picked from the book and the ledger", async () => {
    const { w, base, ids } = await linkedChat(7721, "en", 2);
    await w.say(7721, `/addresses add ${OTHER} Savings`, (m) => m.text.length > 0);
    const { page, close } = await open(launchUrl(`${base}/app`, initFor(w, 7721, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#rows li").count()).toBe(2);
    const picker = page.locator("#receiver-filter");
    const options: string[] = await page.evaluate(`[...document.querySelectorAll("#receiver-filter option")].map((o) => o.value)`);
    expect(options).toEqual(expect.arrayContaining(["", RECEIVER, OTHER]));
    await picker.selectOption(OTHER);
    await expect.poll(() => page.locator("#empty").textContent()).toBe("Nothing matches this filter.");
    await page.locator("#receiver-filter").selectOption(RECEIVER);
    await expect.poll(() => page.locator("#rows li").count()).toBe(2);
    // Read in the page as a string: the project's types carry no DOM.
    const listed: string[] = await page.evaluate(`[...document.querySelectorAll("#rows li")].map((li) => li.getAttribute("data-id"))`);
    expect(listed).toEqual([...ids].reverse());
    await page.locator('[data-filter="r"]').click();
    await expect.poll(() => page.locator('[data-filter="r"]').getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => page.locator("#empty").count()).toBe(1);
    // The receiver stays picked across filters.
    expect(await page.locator("#receiver-filter").inputValue()).toBe(RECEIVER);
    await page.locator('[data-filter="a"]').click();
    await expect.poll(() => page.locator("#rows li").count()).toBe(2);
    await shot(page, "mini-app-en-history-receiver");
    await close();
  });

  for (const language of ["en", "ru", "zh"] as const) {
    it(`Send USDT (${language}): /send's quote, then a one-time link opened with Telegram's openLink, whose token opens the signing page`, async () => {
      const chat = 7730 + ["en", "ru", "zh"].indexOf(language);
      const { w, base } = await linkedChat(chat, language, 0);
      await w.say(chat, `/addresses add ${RECEIVER} Shop`, (m) => m.text.length > 0);
      const { page, close } = await open(launchUrl(`${base}/app?screen=send`, initFor(w, chat, language), DARK_THEME), { mainButton: true });
      await expect.poll(() => page.locator("#send-book button").count()).toBeGreaterThan(0);
      expect(await page.locator('[data-tab="send"]').count()).toBe(1);
      await page.locator(`#send-book [data-address="${RECEIVER}"]`).click();
      expect(await page.locator("#send-recipient").inputValue()).toBe(RECEIVER);
      await page.locator("#send-amount").fill("12.5");
      await page.evaluate("window.__pressMain()");
      await expect.poll(() => page.locator("#send-quote-text").textContent()).toContain(language === "ru" ? "12,5 USDT" : "12.5 USDT");
      expect(await page.locator("#send-quote-text").textContent()).toContain(RECEIVER);
      await page.evaluate("window.__pressMain()");
      await expect.poll(() => page.locator("#sign-link").count()).toBe(1);
      const href = (await page.locator("#sign-link").getAttribute("href"))!;
      const token = /\/sign\/([A-Za-z0-9_-]{24})$/.exec(href)?.[1];
      expect(token).toBeDefined();
      // The QR code the text offers, of that same link, drawn as an image.
      const qr = page.locator("#sign-qr");
      expect(await qr.getAttribute("alt")).toBe(href);
      await expect.poll(() => qr.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(100);
      await shot(page, `mini-app-${language}-send`);
      await page.locator("#sign-link").click();
      const calls: string[] = await page.evaluate("window.__calls");
      expect(calls).toContain(`openLink ${href}`);
      // The token opens the signing page on this server, as the chat's link does.
      expect((await fetch(`${base}/sign/${token}`)).status).toBe(200);
      await close();
    });
  }

  it("Send USDT in a plain browser: the link is a normal link, and a bad amount is refused in /send's words", async () => {
    const { w, base } = await linkedChat(7735, "en", 0);
    const { page, close } = await open(launchUrl(`${base}/app?screen=send`, initFor(w, 7735, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#send-recipient").count()).toBe(1);
    await page.locator("#send-recipient").fill(RECEIVER);
    await page.locator("#send-amount").fill("lots");
    await page.locator("#send-get-quote").click();
    await expect.poll(() => page.locator("#send-error").textContent()).toContain("lots is not an amount of USDT");
    await page.locator("#send-amount").fill("3");
    await page.locator("#send-get-quote").click();
    await page.locator("#send-confirm").click();
    await expect.poll(() => page.locator("#sign-link").count()).toBe(1);
    expect(await page.locator("#sign-link").getAttribute("target")).toBe("_blank");
    await close();
  });

  it("Time zone: found by a city as /settings finds it, saved by /settings' setter, read back from /settings", async () => {
    const { w, base } = await linkedChat(7740, "en", 0);
    const { page, close } = await open(launchUrl(`${base}/app?screen=limits`, initFor(w, 7740, "en"), DARK_THEME));
    await expect.poll(() => page.locator("#zone-change").count()).toBe(1);
    await page.locator("#zone-change").click();
    await expect.poll(() => page.locator("#zone-offsets button").count()).toBeGreaterThan(20);
    await page.locator("#zone-search").fill("Atlantis");
    await page.locator("#zone-search-go").click();
    await expect.poll(() => page.locator("#zone-result").textContent()).toContain("is not a time zone I know");
    await page.locator("#zone-search").fill("novo");
    await page.locator("#zone-search-go").click();
    await expect.poll(() => page.locator("#zone-found button").count()).toBeGreaterThan(1);
    await shot(page, "mini-app-en-zone");
    await page.locator("#zone-search").fill("Berlin");
    await page.locator("#zone-search-go").click();
    await expect.poll(() => page.locator('#zone-found [data-zone="Europe/Berlin"]').count()).toBe(1);
    await page.locator('#zone-found [data-zone="Europe/Berlin"]').click();
    await expect.poll(() => page.locator("#limits-zone").textContent()).toContain("Berlin");
    expect(await page.locator("#limits-result").textContent()).toContain("Time zone set");
    // By offset: UTC+5:30, then a place that keeps it.
    await page.locator("#zone-change").click();
    await page.locator('#zone-offsets [data-offset="330"]').click();
    await page.locator('#zones-at-offset [data-zone="Asia/Kolkata"]').click();
    await expect.poll(() => page.locator("#limits-zone").textContent()).toContain("Kolkata");
    const settings = await w.say(7740, "/settings", (m) => m.text.length > 0);
    expect(JSON.stringify(settings)).toContain("Asia/Kolkata");
    await close();
  });
});
