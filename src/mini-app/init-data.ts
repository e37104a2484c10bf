/**
 * Telegram Mini App launch data (`tgWebAppData`, sent by the page as `X-Telegram-Init-Data`), checked as
 * Telegram documents it: secret_key = HMAC-SHA256(key "WebAppData", bot token); the hash is
 * HMAC-SHA256(secret_key, data-check-string) in hex, where the data-check-string is every received field
 * except `hash` as `key=value`, sorted by key, joined by "\n". Values are hashed exactly as received (the user
 * JSON escapes `/` as `\/`, and the newer `signature` field is part of the string), never re-serialized.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * How old launch data may be. Telegram signs it when the app is opened and never refreshes it, so this is
 * how long an open app keeps working and how long leaked launch data could be replayed: one hour, after
 * which the page asks the user to open the app again (docs/mini-app.md).
 */
export const INIT_DATA_MAX_AGE_S = 3_600;
/** Clocks differ: launch data signed up to this far in the future is still taken. */
const INIT_DATA_FUTURE_SKEW_S = 300;
/** Launch data is a few hundred bytes; anything past this is not Telegram's. */
const MAX_INIT_DATA_CHARS = 8_192;

/** The fields of Telegram's WebAppUser the app reads. */
export interface InitDataUser {
  id: number;
  firstName?: string;
  languageCode?: string;
}

export type InitDataCheck =
  { ok: true; user: InitDataUser; authDateS: number } | { ok: false; reason: "missing" | "malformed" | "bad_hash" | "expired" | "future" | "no_user" };

export interface InitDataCheckOptions {
  nowMs: number;
  maxAgeS?: number;
}

/** The secret every launch data hash of this bot is keyed with. */
function secretKey(botToken: string): Buffer {
  return createHmac("sha256", "WebAppData").update(botToken).digest();
}

/** Every field but `hash`, `key=value` sorted by key, one per line: what Telegram hashes. */
export function dataCheckString(params: URLSearchParams): string {
  return [...params.entries()]
    .filter(([key]) => key !== "hash")
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
}

/** The hex hash Telegram puts in `hash` for these fields under this bot token. */
function initDataHash(params: URLSearchParams, botToken: string): string {
  return createHmac("sha256", secretKey(botToken)).update(dataCheckString(params)).digest("hex");
}

function userOf(raw: string | null): InitDataUser | undefined {
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const u = parsed as Record<string, unknown>;
  if (typeof u["id"] !== "number" || !Number.isSafeInteger(u["id"]) || u["id"] <= 0) return undefined;
  return {
    id: u["id"],
    ...(typeof u["first_name"] === "string" ? { firstName: u["first_name"] } : {}),
    ...(typeof u["language_code"] === "string" ? { languageCode: u["language_code"] } : {}),
  };
}

/**
 * Checks launch data against the bot token and the clock. The hash is compared in constant time; nothing of
 * the data is trusted before it matches.
 */
export function checkInitData(raw: string | undefined, botToken: string, options: InitDataCheckOptions): InitDataCheck {
  if (raw === undefined || raw === "") return { ok: false, reason: "missing" };
  if (raw.length > MAX_INIT_DATA_CHARS) return { ok: false, reason: "malformed" };
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const hash = params.get("hash");
  if (hash === null || !/^[0-9a-f]{64}$/.test(hash) || params.getAll("hash").length !== 1) return { ok: false, reason: "malformed" };
  const expected = Buffer.from(initDataHash(params, botToken), "hex");
  if (!timingSafeEqual(expected, Buffer.from(hash, "hex"))) return { ok: false, reason: "bad_hash" };
  const authDate = params.get("auth_date");
  if (authDate === null || !/^\d{1,12}$/.test(authDate)) return { ok: false, reason: "malformed" };
  const authDateS = Number(authDate);
  const nowS = Math.floor(options.nowMs / 1000);
  if (authDateS > nowS + INIT_DATA_FUTURE_SKEW_S) return { ok: false, reason: "future" };
  if (nowS - authDateS > (options.maxAgeS ?? INIT_DATA_MAX_AGE_S)) return { ok: false, reason: "expired" };
  const user = userOf(params.get("user"));
  if (user === undefined) return { ok: false, reason: "no_user" };
  return { ok: true, user, authDateS };
}

/**
 * The user's Telegram language from launch data whose hash did not (or not yet) check: it only picks the
 * language a refusal is worded in, never whose data is shown.
 */
export function unverifiedLanguage(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.length > MAX_INIT_DATA_CHARS) return undefined;
  try {
    return userOf(new URLSearchParams(raw).get("user"))?.languageCode;
  } catch {
    return undefined;
  }
}
