import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIRECTORY } from "../../src/bot/i18n.js";
import { createLogger } from "../../src/platform/logger.js";
import { ERROR_TEXTS, serviceErrorText } from "../../src/bot/helpers/error-text.js";
import {
  CLIENT_ERROR_CODES,
  KNOWN_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  ServiceError,
  type ClientErrorCode,
  type KnownErrorCode,
} from "../../src/platform/service/errors.js";
import { useBotHarness } from "../support/bot-harness.js";

/** A status each client code comes with (0: no response arrived, or refused before sending). */
const CLIENT_STATUS: Record<ClientErrorCode, number> = {
  [CLIENT_ERROR_CODES.timeout]: 0,
  [CLIENT_ERROR_CODES.connection]: 0,
  [CLIENT_ERROR_CODES.badErrorBody]: 500,
  [CLIENT_ERROR_CODES.badResponse]: 200,
  [CLIENT_ERROR_CODES.bodyTooLarge]: 0,
  [CLIENT_ERROR_CODES.invalidId]: 0,
  [CLIENT_ERROR_CODES.invalidIdempotencyKey]: 0,
};
const STATUS: Record<KnownErrorCode, number> = { ...SERVICE_ERROR_STATUS, ...CLIENT_STATUS };
const LOCALES = ["en", "ru", "zh"] as const;

const i18n = createI18n({
  defaultLocale: "en",
  directory: LOCALES_DIRECTORY,
  storedLocale: () => Promise.resolve(undefined),
  logger: createLogger({ level: "silent" }),
});
/** The fixed text of a message before its first variable. */
function fixedPrefix(locale: string, key: string): string {
  const blank = "\u0000";
  const source = i18n.t(locale, key, {
    seenIp: blank,
    retryAfterSec: blank,
    detail: blank,
    requiredTrx: blank,
    minDepositTrx: blank,
    requestId: blank,
    code: blank,
  });
  return source.split("\u0000")[0]!.replace(/<[^>]+>/g, "");
}
type Translator = Parameters<typeof serviceErrorText>[0];
const translatorFor = (locale: string): Translator => ({ t: (key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars) }) as Translator;
/** Telegram's view of an HTML text: tags gone, entities decoded. */
const shown = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

describe("error texts: every code has its own localized explanation (the table)", () => {
  it("covers every code of section 7 and every client code", () => {
    expect(Object.keys(ERROR_TEXTS).sort()).toEqual([...Object.keys(SERVICE_ERROR_STATUS), ...Object.values(CLIENT_ERROR_CODES)].sort());
  });

  for (const locale of LOCALES) {
    it(`${locale}: each code becomes its own text`, () => {
      const tr = translatorFor(locale);
      const seen = new Set<string>();
      for (const code of KNOWN_ERROR_CODES) {
        const status = STATUS[code];
        const error = new ServiceError({ code, status, detail: `detail of ${code}`, requestId: "req_0a1b", ...(status === 429 ? { retryAfterSec: 7 } : {}) });
        const text = shown(serviceErrorText(tr, error, locale));
        expect(text.startsWith(fixedPrefix(locale, ERROR_TEXTS[code].key)), `${code}: ${text}`).toBe(true);
        seen.add(text);
      }
      expect(seen.size).toBe(KNOWN_ERROR_CODES.length);
    });
  }
});

describe("error texts through the bot", () => {
  const h = useBotHarness();
  const chats = { en: 9001, ru: 9002, zh: 9003 } as const;
  beforeAll(async () => {
    for (const [locale, chatId] of Object.entries(chats)) {
      h.tg.addChat(chatId, { languageCode: locale });
      await h.linkChat(chatId);
    }
  });
  afterEach(() => h.sim.faults.clear());

  it("a refusal reaches the user through /balance as the table's text, in the chat's language", async () => {
    for (const locale of LOCALES) {
      const u = h.user(chats[locale]);
      h.sim.faults.clear();
      h.sim.faults.inject({
        method: "GET",
        path: "/v1/balance",
        kind: "status",
        status: 400,
        code: "validation.invalid_field",
        detail: "detail of validation.invalid_field",
      });
      await u.send("/balance");
      const expected = serviceErrorText(
        translatorFor(locale),
        new ServiceError({ code: "validation.invalid_field", status: 400, detail: "detail of validation.invalid_field" }),
        locale,
      );
      expect(u.lastText()).toBe(shown(expected));
      expect(u.lastText().startsWith(fixedPrefix(locale, ERROR_TEXTS["validation.invalid_field"].key))).toBe(true);
      // /balance explains a 404 as "no wallet yet"; the generic not_found text is in the table above.
      h.sim.faults.clear();
      h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 404, code: "not_found", detail: "detail of not_found" });
      await u.send("/balance");
      expect(u.lastText().startsWith(fixedPrefix(locale, "balance-no-wallet")), u.lastText()).toBe(true);
    }
    expect(h.tg.failedCalls()).toEqual([]);
  });

  it("an unknown code shows its detail, labelled as the service's words, and requestId", async () => {
    const u = h.user(chats.en);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 418, code: "teapot.brewing", detail: "short & <stout>" });
    await u.send("/balance");
    expect(u.lastText()).toMatch(/teapot\.brewing\. Its words: “short & <stout>” \(request req_[0-9a-f]+\)/);
    const ru = h.user(chats.ru);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 418, code: "teapot.brewing", detail: "short & <stout>" });
    await ru.send("/balance");
    expect(ru.lastText()).toMatch(/ошибке teapot\.brewing\. Текст сервиса \(без перевода\): «short & <stout>» \(запрос req_[0-9a-f]+\)/);
    expect(h.tg.failedCalls()).toEqual([]);
  });

  it("a detail echoing a key or secret reaches the user redacted", async () => {
    const u = h.user(chats.en);
    const leaked = "sk_live_0123456789abcdef0123456789";
    h.sim.faults.inject({
      method: "GET",
      path: "/v1/balance",
      kind: "status",
      status: 418,
      code: "teapot.brewing",
      detail: `key ${leaked} and secret=whsec-hunter22 refused`,
    });
    await u.send("/balance");
    expect(u.lastText()).toContain("[redacted]");
    expect(u.lastText()).not.toContain(leaked);
    expect(u.lastText()).not.toContain("whsec-hunter22");
  });

  it("the 402 text names the required amount and the 429 text the wait", async () => {
    const u = h.user(chats.en);
    // A wait longer than the call's budget (10 s here): the chat is told at once, the wait not sat out first.
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 429, code: "rate_limited", retryAfterSec: 30 });
    await u.send("/balance");
    expect(u.lastText()).toContain("wait 30 s");
  });

  it("an unexpected failure is answered with a short line, never a stack trace, and logged with the update", async () => {
    const u = h.user(chats.en);
    const original = h.deps.chats.openRecord;
    h.deps.chats.openRecord = () => Promise.reject(new Error("disk on fire"));
    try {
      await u.send("/balance");
    } finally {
      h.deps.chats.openRecord = original;
    }
    expect(u.lastText()).toBe("Something went wrong on my side. Please try again; if it keeps happening, contact support.");
    const errors = h.takeErrorLogs();
    expect(errors).toHaveLength(1);
    const logged = errors[0]!;
    expect(JSON.stringify(logged)).toContain("disk on fire");
    expect(logged.msg).toBe("update failed");
    expect(logged["update_id"]).toEqual(expect.any(Number));
    expect(logged["chat_id"]).toBe(chats.en);
    expect(await h.deps.metrics.get("bot_updates_total", { type: "message", outcome: "error" })).toBeGreaterThan(0);
  });
});
