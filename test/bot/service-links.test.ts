/**
 * DASHBOARD_URL, SUPPORT_URL and EXPLORER_URL: a URL button wherever a text
 * sends the user to the dashboard or to support, only when its URL is set;
 * the explorer of finished cards follows EXPLORER_URL.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../src/config.js";
import { TEXT_LINKS } from "../../src/bot/helpers/service-links.js";
import { createLinks } from "../../src/bot/helpers/links.js";
import { createI18n } from "../../src/bot/i18n.js";
import { createBalanceNotifier } from "../../src/features/balance/balance-notifier.js";
import { createLogger } from "../../src/platform/logger.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { useBotHarness } from "../support/bot-harness.js";

const DASHBOARD = "https://dashboard.example.com/keys";
const SUPPORT = "https://t.me/energy_support";
const EXPLORER = "https://nile.tronscan.org/#";

const LOCALES = resolve(import.meta.dirname, "../../locales");

/** Message id -> its text, for one locale (attributes and comments left out). */
function messages(locale: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(LOCALES, locale)).filter((f) => f.endsWith(".ftl"))) {
    let current: string | undefined;
    for (const line of readFileSync(join(LOCALES, locale, file), "utf8").split("\n")) {
      const head = /^([a-z][a-zA-Z0-9_-]*)\s*=\s*(.*)$/.exec(line);
      if (head) {
        current = head[1]!;
        out.set(current, head[2]!);
      } else if (current !== undefined && /^\s+\S/.test(line) && !/^\s+\./.test(line)) {
        out.set(current, `${out.get(current)!}\n${line.trim()}`);
      } else if (!/^\s/.test(line)) current = undefined;
    }
  }
  return out;
}

const urlButtons = (buttons: { text: string; url?: string }[][]) =>
  buttons
    .flat()
    .filter((b) => b.url !== undefined)
    .map((b) => [b.text, b.url]);

describe("the texts that send users to the dashboard or to support", () => {
  it("are all listed (so each gets its button), and every listed text exists in every locale", () => {
    const en = messages("en");
    // The link buttons' own labels name the dashboard too.
    const mentioning = [...en].filter(([key, text]) => !key.startsWith("buttons-") && /\bdashboard\b|contact support/i.test(text)).map(([key]) => key);
    expect(mentioning.length).toBeGreaterThan(20);
    expect(mentioning.filter((key) => TEXT_LINKS[key] === undefined)).toEqual([]);
    for (const locale of SUPPORTED_LOCALES) {
      const all = messages(locale);
      expect(
        Object.keys(TEXT_LINKS).filter((key) => !all.has(key)),
        locale,
      ).toEqual([]);
    }
    // Support where the text says support, the dashboard where it says dashboard.
    for (const key of mentioning) {
      const text = en.get(key)!;
      expect(TEXT_LINKS[key], key).toEqual([...(/\bdashboard\b/i.test(text) ? ["dashboard"] : []), ...(/contact support/i.test(text) ? ["support"] : [])]);
    }
  });
});

describe("with DASHBOARD_URL, SUPPORT_URL and EXPLORER_URL set", () => {
  const h = useBotHarness({
    extendDeps: (deps) => ({ ...deps, config: { ...deps.config, dashboardUrl: DASHBOARD, supportUrl: SUPPORT, explorerUrl: EXPLORER } }),
  });
  let chat = 7500;

  it("/start links the dashboard and support, linked or not", async () => {
    const u = h.user(++chat, { languageCode: "zh" });
    await u.send("/start");
    expect(urlButtons(u.last()!.buttons)).toEqual([
      ["🖥 控制台", DASHBOARD],
      ["💬 客服", SUPPORT],
    ]);
    await h.linkChat(u.chatId);
    await u.send("/start");
    expect(u.lastButtons().at(-1)).toEqual(["🖥 控制台", "💬 客服"]);
    expect(urlButtons(u.last()!.buttons)).toEqual([
      ["🖥 控制台", DASHBOARD],
      ["💬 客服", SUPPORT],
    ]);
  });

  it("puts a Dashboard button under 'not linked', the /link prompt and a missing wallet", async () => {
    const u = h.user(++chat, { languageCode: "ru" });
    await u.send("/balance");
    expect(u.lastText()).toContain("/link");
    expect(urlButtons(u.last()!.buttons)).toEqual([["🖥 Панель управления", DASHBOARD]]);
    await u.send("/link");
    expect(u.lastButtons().flat()).toContain("🖥 Панель управления");
    await u.send("/cancel");
    await h.linkChat(u.chatId, { hasWallet: false });
    await u.send("/balance");
    expect(urlButtons(u.last()!.buttons)).toEqual([["🖥 Панель управления", DASHBOARD]]);
  });

  it("puts a Support button under an error that says to contact support", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    await h.linkChat(u.chatId);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", times: 1, kind: "status", status: 418, code: "teapot.refused" });
    await u.send("/balance");
    expect(u.lastText()).toContain("contact support");
    expect(urlButtons(u.last()!.buttons)).toEqual([["💬 Support", SUPPORT]]);
    h.takeErrorLogs();
  });

  it("links a finished order's receiver on the configured explorer", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    const account = await h.linkChat(u.chatId, { balanceSun: 100_000_000 });
    const { orders } = await h.deps.service.createOrders(
      account.apiKey,
      [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }],
      "k-links",
    );
    const id = orders[0]!.orderId;
    await expect.poll(async () => (await h.deps.service.getOrder(account.apiKey, id)).status, { timeout: 10_000 }).toBe("fulfilled");
    await u.send(`/track ${id}`);
    expect(urlButtons(u.last()!.buttons)).toEqual([["🔎 Explorer", `${EXPLORER}/address/${TEST_KEYS.carol.address}`]]);
  });
});

describe("without DASHBOARD_URL and SUPPORT_URL", () => {
  const h = useBotHarness();

  it("shows no dashboard or support button anywhere they would go", async () => {
    const u = h.user(7601, { languageCode: "en" });
    await u.send("/start");
    expect(urlButtons(u.last()!.buttons)).toEqual([]);
    await u.send("/balance");
    expect(u.last()!.buttons).toEqual([]);
    await h.linkChat(u.chatId);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", times: 1, kind: "status", status: 418, code: "teapot.refused" });
    await u.send("/balance");
    expect(u.lastText()).toContain("contact support");
    expect(u.last()!.buttons).toEqual([]);
    h.takeErrorLogs();
  });
});

describe("the foreign-charge alert", () => {
  const i18n = createI18n({ defaultLocale: "en", storedLocale: () => Promise.resolve(undefined), logger: createLogger({ level: "silent" }) });

  async function alertMarkup(links?: ReturnType<typeof createLinks>) {
    const jobs: { params: Record<string, unknown> }[] = [];
    const notifier = createBalanceNotifier({
      push: { enqueue: (job) => Promise.resolve(void jobs.push(job)) },
      chats: { get: () => Promise.resolve(undefined) },
      i18n,
      defaultLocale: "en",
      logger: createLogger({ level: "silent" }),
      ...(links ? { links } : {}),
    });
    await notifier.announce({ kind: "foreign", chatId: 1, id: "f1", droppedSun: 2_000_000n, balanceSun: 8_000_000n });
    expect(String(jobs[0]?.params["text"])).toContain("revoke the key in the dashboard");
    return jobs[0]?.params["reply_markup"];
  }

  it("links the dashboard when DASHBOARD_URL is set, and has no button otherwise", async () => {
    expect(await alertMarkup(createLinks({ dashboardUrl: DASHBOARD }))).toEqual({ inline_keyboard: [[{ text: "🖥 Dashboard", url: DASHBOARD }]] });
    expect(await alertMarkup(createLinks({}))).toBeUndefined();
    expect(await alertMarkup()).toBeUndefined();
  });
});
