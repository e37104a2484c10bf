import { I18n } from "@grammyjs/i18n";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOCALES_DIRECTORY } from "../../src/bot/i18n.js";
import { ERROR_TEXTS, serviceErrorText } from "../../src/bot/helpers/error-text.js";
import { CLIENT_ERROR_CODES, ServiceError } from "../../src/core/service/errors.js";
import type { Fault } from "../../src/simulator/index.js";
import { useBotHarness } from "../support/bot-harness.js";

/** Status of each code of service-api.md section 7. */
const SERVER_CODES: Record<string, number> = {
  "api_key.invalid": 401,
  "api_key.revoked": 401,
  "api_keys.ip_not_allowed": 403,
  rate_limited: 429,
  "validation.invalid_field": 400,
  "request.invalid": 413,
  "validation.invalid_callback_url": 422,
  "idempotency.in_progress": 409,
  "idempotency.key_reuse": 422,
  "wallet.insufficient_balance": 402,
  "wallet.not_registered": 422,
  not_found: 404,
  "order.receiver_undeliverable": 422,
  "broadcast.malformed": 400,
  "broadcast.no_signature": 400,
  "broadcast.duplicate_tx": 409,
  "broadcast.invalid_tx": 422,
  "broadcast.tx_would_revert": 422,
  "broadcast.insufficient_usdt": 422,
  "broadcast.insufficient_bandwidth": 422,
  "broadcast.insufficient_time": 422,
  "broadcast.tx_expired": 422,
  "broadcast.unsupported_contract": 422,
  "broadcast.upstream_unavailable": 503,
};

const balance = { method: "GET", path: "/v1/balance" } as const;
const CLIENT_FAULTS: Record<string, Fault> = {
  [CLIENT_ERROR_CODES.timeout]: { ...balance, kind: "hang" },
  [CLIENT_ERROR_CODES.connection]: { ...balance, kind: "reset" },
  [CLIENT_ERROR_CODES.badErrorBody]: { ...balance, kind: "non_json", status: 500, body: "<html>oops</html>" },
  [CLIENT_ERROR_CODES.badResponse]: { ...balance, kind: "non_json", status: 200, body: "{\"availableSun\":\"lots\"}" },
};
/** Refused before sending, so no fault can produce them through /balance. */
const LOCAL_ONLY = ["not_found", CLIENT_ERROR_CODES.bodyTooLarge, CLIENT_ERROR_CODES.invalidId, CLIENT_ERROR_CODES.invalidIdempotencyKey];

const i18n = new I18n({ defaultLocale: "en", directory: LOCALES_DIRECTORY, fluentBundleOptions: { useIsolating: false } });
/** The fixed text of a message before its first variable. */
function fixedPrefix(locale: string, key: string): string {
  const blank = "\u0000";
  const source = i18n.t(locale, key, { seenIp: blank, retryAfterSec: blank, detail: blank, requiredTrx: blank, minDepositTrx: blank, requestId: blank, code: blank });
  return source.split("\u0000")[0]!.replace(/<[^>]+>/g, "");
}

describe("error texts: every code has its own localized explanation", () => {
  const h = useBotHarness();
  const chats: Record<string, number> = { en: 9001, ru: 9002, zh: 9003 };
  beforeAll(async () => {
    for (const [locale, chatId] of Object.entries(chats)) {
      h.tg.addChat(chatId, { languageCode: locale });
      await h.linkChat(chatId);
    }
  });
  afterEach(() => h.sim.faults.clear());

  it("covers every code of section 7 and every client code", () => {
    expect(Object.keys(ERROR_TEXTS).sort()).toEqual([...Object.keys(SERVER_CODES), ...Object.values(CLIENT_ERROR_CODES)].sort());
  });

  for (const locale of ["en", "ru", "zh"]) {
    it(`${locale}: each server code reaches the user as its own text`, async () => {
      const u = h.user(chats[locale]!);
      const seen = new Set<string>();
      for (const [code, status] of Object.entries(SERVER_CODES)) {
        h.sim.faults.clear();
        h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status, code, detail: `detail of ${code}`, ...(status === 429 ? { retryAfterSec: 7 } : {}) });
        await u.send("/balance");
        const text = u.lastText();
        // /balance explains a 404 as "no wallet yet"; the generic not_found text is checked below.
        const key = code === "not_found" ? "balance-no-wallet" : ERROR_TEXTS[code as keyof typeof ERROR_TEXTS].key;
        expect(text.startsWith(fixedPrefix(locale, key)), `${code}: ${text}`).toBe(true);
        seen.add(text);
      }
      expect(seen.size).toBe(Object.keys(SERVER_CODES).length);
      expect(h.tg.failedCalls()).toEqual([]);
    });

    it(`${locale}: client failures (timeout, connection, bad bodies) have their own texts`, async () => {
      const u = h.user(chats[locale]!);
      for (const [code, fault] of Object.entries(CLIENT_FAULTS)) {
        h.sim.faults.clear();
        h.sim.faults.inject(fault);
        await u.send("/balance");
        const key = ERROR_TEXTS[code as keyof typeof ERROR_TEXTS].key;
        expect(u.lastText().startsWith(fixedPrefix(locale, key)), `${code}: ${u.lastText()}`).toBe(true);
      }
    });
  }

  it("codes refused locally before sending (and the generic not_found) have their own texts too", () => {
    for (const locale of ["en", "ru", "zh"]) {
      const ctx = { t: (key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars) } as Parameters<typeof serviceErrorText>[0];
      const texts = LOCAL_ONLY.map((code) => serviceErrorText(ctx, new ServiceError({ code, status: 0 }), locale));
      LOCAL_ONLY.forEach((code, i) => expect(texts[i]!.startsWith(fixedPrefix(locale, ERROR_TEXTS[code as keyof typeof ERROR_TEXTS].key))).toBe(true));
      expect(new Set(texts).size).toBe(LOCAL_ONLY.length);
    }
  });

  it("an unknown code shows its detail and requestId", async () => {
    const u = h.user(chats.en!);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 418, code: "teapot.brewing", detail: "short & <stout>" });
    await u.send("/balance");
    expect(u.lastText()).toMatch(/teapot\.brewing, short & <stout> \(request req_[0-9a-f]+\)/);
    expect(h.tg.failedCalls()).toEqual([]);
  });

  it("a detail echoing a key or secret reaches the user redacted", async () => {
    const u = h.user(chats.en!);
    const leaked = "sk_live_0123456789abcdef0123456789";
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 418, code: "teapot.brewing", detail: `key ${leaked} and secret=whsec-hunter22 refused` });
    await u.send("/balance");
    expect(u.lastText()).toContain("[redacted]");
    expect(u.lastText()).not.toContain(leaked);
    expect(u.lastText()).not.toContain("whsec-hunter22");
  });

  it("the 402 text names the required amount and the 429 text the wait", async () => {
    const u = h.user(chats.en!);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 429, code: "rate_limited", retryAfterSec: 9 });
    await u.send("/balance");
    expect(u.lastText()).toContain("wait 9 s");
  });

  it("an unexpected failure is answered with a short line, never a stack trace, and logged with the update", async () => {
    const u = h.user(chats.en!);
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
    expect(logged.update_id).toEqual(expect.any(Number));
    expect(logged.chat_id).toBe(chats.en);
    expect(h.deps.metrics.get("bot_updates_total", { type: "message", outcome: "error" })).toBeGreaterThan(0);
  });
});
