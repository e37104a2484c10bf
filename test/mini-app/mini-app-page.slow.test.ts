/**
 * The Mini App in a real headless Chromium (docs/mini-app.md): opened the way Telegram opens it, with launch
 * data signed by the fake bot's token in the URL's hash, against the bot on loopback and the simulator. The
 * balance and the ledger against the chat's own /orders, the theme, the three languages, CSV export,
 * Telegram's back button, and every refusal. Screenshots land in MINI_APP_SCREENSHOTS when it is set.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "../../testkit/browser.js";
import { DARK_THEME, LIGHT_THEME, launchUrl } from "../../testkit/mini-app-launch.js";
import { waitFor } from "../app-harness.js";
import { initFor, nowS, useMiniAppBrowser } from "./mini-app-browser.js";

const SHOTS = process.env["MINI_APP_SCREENSHOTS"];

describe.skipIf(!chromiumAvailable())("the Mini App in Chromium (skipped without /usr/bin/chromium: apt-get install chromium)", () => {
  const m = useMiniAppBrowser();

  /** A chat linked in `language` with `orders` fulfilled orders; the chat's /orders message as it reads then. */
  async function linkedChat(chat: number, language: string, orders: number) {
    const linked = await m.linkedChat(chat, language, orders);
    const ordersMessage = orders === 0 ? undefined : await linked.w.say(chat, "/orders", (msg) => msg.text.includes(linked.ids.at(-1)!));
    return { ...linked, ordersText: ordersMessage?.text ?? "" };
  }

  async function open(url: string, options: { telegramSdk?: boolean } = {}) {
    const context = await m.browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 1, acceptDownloads: true });
    const page = await context.newPage();
    const offHost: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith("http://127.0.0.1:") && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) offHost.push(r.url());
    });
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") cspErrors.push(m.text());
    });
    if (options.telegramSdk) {
      // Stands in for Telegram's SDK object, recording what the page asks of it.
      await page.addInitScript(() => {
        const calls: string[] = [];
        let back: (() => void) | undefined;
        Object.assign(globalThis, {
          __calls: calls,
          __pressBack: () => back?.(),
          Telegram: {
            WebApp: {
              ready: () => calls.push("ready"),
              expand: () => calls.push("expand"),
              openLink: (url: string) => calls.push(`openLink ${url}`),
              onEvent: () => undefined,
              BackButton: {
                show: () => calls.push("back:show"),
                hide: () => calls.push("back:hide"),
                onClick: (cb: () => void) => void (back = cb),
                offClick: () => undefined,
              },
            },
          },
        });
      });
    }
    await page.goto(url);
    return { page, offHost, cspErrors, close: () => context.close() };
  }

  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  /** The rows as the page shows them, read through locators (the project's types carry no DOM). */
  const rowsOf = async (page: Page) => {
    const items = page.locator("li.row");
    const rows: { id: string | null; status: string | null; costSun: string | null; text: string; link: string | null }[] = [];
    for (let i = 0; i < (await items.count()); i += 1) {
      const li = items.nth(i);
      rows.push({
        id: await li.getAttribute("data-id"),
        status: await li.getAttribute("data-status"),
        costSun: await li.getAttribute("data-cost-sun"),
        text: (await li.locator(".row-text").textContent()) ?? "",
        link: await li.locator("a.explorer").getAttribute("href"),
      });
    }
    return rows;
  };

  it("shows the linked chat's exact balance and the ledger of its /orders, in the dark theme, loading nothing from elsewhere", async () => {
    const { w, base, ids, ordersText } = await linkedChat(7601, "en", 3);
    const { page, offHost, cspErrors, close } = await open(launchUrl(`${base}/app`, initFor(w, 7601, "en"), DARK_THEME));
    await expect.poll(() => page.locator("li.row").count()).toBe(3);
    const service = (await (await fetch(`${w.sim.baseUrl}/v1/balance`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } })).json()) as {
      availableSun: number;
    };
    expect(await page.locator("#balance-trx").getAttribute("data-sun")).toBe(String(service.availableSun));
    expect(await page.locator("#balance-sun").textContent()).toBe(`${service.availableSun} sun`);
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
    for (const row of rows) {
      expect(row.status).toBe("fulfilled");
      // The row, word for word and to the sun, as the chat's /orders wrote it.
      expect(ordersText).toContain(row.text);
      expect(row.costSun).toMatch(/^[1-9]\d*$/);
      expect(row.link).toMatch(/^https:\/\/tronscan\.org\/#\/address\/T/);
    }
    expect(await page.locator("h1").textContent()).toBe("History");
    expect(await page.locator("html").getAttribute("data-theme")).toBe("dark");
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(35, 46, 60)");
    expect(await page.evaluate('getComputedStyle(document.querySelector("li.row")).backgroundColor')).toBe("rgb(23, 33, 43)");
    await shot(page, "mini-app-en-dark");

    await page.locator('[data-filter="b"]').click();
    await expect.poll(() => page.locator("#empty").textContent()).toBe("Nothing matches this filter.");
    await page.locator('[data-filter="o"]').click();
    await expect.poll(() => page.locator("li.row").count()).toBe(3);

    const download = page.waitForEvent("download");
    await page.locator("#export").click();
    const csv = await readFile(await (await download).path(), "utf8");
    for (const row of rows) expect(csv).toContain(row.id);
    for (const row of rows) expect(csv).toContain(row.costSun!);
    expect(offHost).toEqual([]);
    expect(cspErrors).toEqual([]);
    await close();
  });

  it("pages through a longer ledger", async () => {
    const { w, base, ids } = await linkedChat(7602, "en", 12);
    const { page, close } = await open(launchUrl(`${base}/app`, initFor(w, 7602, "en"), LIGHT_THEME));
    await expect.poll(() => page.locator("li.row").count()).toBe(10);
    expect(await page.locator("#page").textContent()).toBe("Page 1 of 2, 12 in all");
    expect(await page.locator("#newer").isDisabled()).toBe(true);
    await page.locator("#older").click();
    await expect.poll(() => page.locator("li.row").count()).toBe(2);
    expect((await rowsOf(page)).map((r) => r.id)).toEqual(ids.slice(0, 2).reverse());
    expect(await page.locator("html").getAttribute("data-theme")).toBe("light");
    await shot(page, "mini-app-en-light-page-2");
    await close();
  }, 60_000);

  it("uses Telegram's WebApp object when present: ready, expand, the back button on a row's details", async () => {
    const { w, base, ids } = await linkedChat(7603, "en", 1);
    const { page, close } = await open(launchUrl(`${base}/app`, initFor(w, 7603, "en")), { telegramSdk: true });
    await expect.poll(() => page.locator("li.row").count()).toBe(1);
    await page.locator("li.row .row-text").click();
    await expect.poll(() => page.locator("#detail").getAttribute("data-id")).toBe(ids[0]);
    await shot(page, "mini-app-en-detail");
    await page.locator("#detail a.explorer").click();
    await page.evaluate("window.__pressBack()");
    await expect.poll(() => page.locator("li.row").count()).toBe(1);
    const calls: string[] = await page.evaluate("window.__calls");
    expect(calls.slice(0, 2)).toEqual(["ready", "expand"]);
    expect(calls).toContain("back:show");
    expect(calls.at(-1)).toBe("back:hide");
    expect(calls.some((c) => c.startsWith("openLink https://tronscan.org/#/address/"))).toBe(true);
    await close();
  });

  it("places an order from the Order screen through the chat's use case: charged once, its card in the chat", async () => {
    const { w, base } = await linkedChat(7608, "en", 1);
    const { page, offHost, close } = await open(launchUrl(`${base}/app`, initFor(w, 7608, "en"), DARK_THEME), { telegramSdk: true });
    await expect.poll(() => page.locator("li.row").count()).toBe(1);
    await page.locator('[data-tab="order"]').click();
    await page.locator('#book [data-address="TQCq78eKWLd98P5Eu155knhkacGPAhS9pu"]').click();
    await page.locator('#presets [data-amount="131000"]').click();
    await expect.poll(() => page.locator('#presets [data-amount="131000"]').getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("#receiver").inputValue()).toBe("TQCq78eKWLd98P5Eu155knhkacGPAhS9pu");
    const tier = page.locator('#tiers [data-duration="3600"]');
    expect(await tier.getAttribute("data-total-sun")).toMatch(/^[1-9]\d*$/);
    await tier.click();
    await page.locator("#get-quote").click();
    await expect.poll(() => page.locator("#quote-text").textContent()).toContain("131,000 energy for 1 h to TQCq78eKWLd98P5Eu155knhkacGPAhS9pu");
    await shot(page, "mini-app-en-order-quote");
    const posts = () => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders").length;
    const before = posts();
    // Two taps in a row: the button is taken at the first, and the placer's key makes any repeat a replay.
    await page.locator("#confirm").dblclick();
    await expect.poll(() => page.locator("#order-result").textContent()).toContain("Placed.");
    const orderId = (await page.locator("#order-result").getAttribute("data-orders"))!;
    expect(orderId).toMatch(/^[0-9a-f]{24}$/);
    await waitFor(() => w.botTexts(7608, new RegExp(orderId)).length > 0, "the order's card in the chat");
    expect(posts()).toBe(before + 1);
    const service = (await (await fetch(`${w.sim.baseUrl}/v1/balance`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } })).json()) as {
      availableSun: number;
    };
    await expect.poll(() => page.locator("#balance-trx").getAttribute("data-sun")).toBe(String(service.availableSun));
    await shot(page, "mini-app-en-order-placed");
    expect(offHost).toEqual([]);
    await close();
  });

  for (const [language, words] of [
    ["ru", { history: "История", balance: "Баланс", all: "Все", export: "Скачать CSV" }],
    ["zh", { history: "记录", balance: "余额", all: "全部", export: "导出 CSV" }],
  ] as const) {
    it(`speaks the chat's language (${language}) and writes the rows as the chat's /orders does`, async () => {
      const chat = language === "ru" ? 7604 : 7605;
      const { w, base, ordersText } = await linkedChat(chat, language, 2);
      const { page, close } = await open(launchUrl(`${base}/app`, initFor(w, chat, language), DARK_THEME));
      await expect.poll(() => page.locator("li.row").count()).toBe(2);
      expect(await page.locator("h1").textContent()).toBe(words.history);
      expect(await page.locator("#balance .label").textContent()).toBe(words.balance);
      expect(await page.locator('[data-filter="a"]').textContent()).toBe(words.all);
      expect(await page.locator("#export").textContent()).toBe(words.export);
      expect(await page.locator("html").getAttribute("lang")).toBe(language);
      for (const row of await rowsOf(page)) expect(ordersText).toContain(row.text);
      await shot(page, `mini-app-${language}-dark`);
      await close();
    });
  }

  it("shows nothing of any account for forged, stale or another bot's launch data, and asks another user to link", async () => {
    const { w, base } = await linkedChat(7606, "en", 1);
    const good = initFor(w, 7606, "en");
    const forged = good.replace(/hash=[0-9a-f]/, (h) => (h.endsWith("a") ? "hash=b" : "hash=a"));
    const cases = [
      ["forged", forged, "could not be verified"],
      ["stale", initFor(w, 7606, "en", nowS() - 7_200), "session has expired"],
      ["other-bot", initFor(w, 7606, "en", nowS(), "7000000002:AAAnotherBotsToken_0123456789abcdef"), "could not be verified"],
      ["other-user", initFor(w, 7607, "en"), "no linked account"],
    ] as const;
    for (const [what, init, says] of cases) {
      const { page, close } = await open(launchUrl(`${base}/app`, init, DARK_THEME));
      await expect.poll(() => page.locator("#status").textContent(), { message: what }).toContain(says);
      expect(await page.locator("#balance").isVisible()).toBe(false);
      expect(await page.locator("li.row").count()).toBe(0);
      expect(await page.content()).not.toMatch(/[0-9a-f]{24}|TRX/);
      await shot(page, `mini-app-refused-${what}`);
      await close();
    }
    const { page, close } = await open(`${base}/app`);
    await expect.poll(() => page.locator("#status").textContent()).toContain("Open this app from the bot's chat");
    await close();
  }, 60_000);
});
