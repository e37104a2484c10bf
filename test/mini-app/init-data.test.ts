import { describe, expect, it } from "vitest";
import { checkInitData, dataCheckString, INIT_DATA_MAX_AGE_S, unverifiedLanguage } from "../../src/mini-app/init-data.js";
import { signInitData } from "../../testkit/mini-app-launch.js";

/**
 * Launch data shaped as Telegram's apps send it (a menu-button launch: user with an escaped photo URL,
 * chat_instance, chat_type, the newer `signature`), its hash computed outside this code base (Python's
 * hmac, following Telegram's documented rule) for this made-up token.
 */
const TOKEN = "7000000001:AAFakeTokenForMiniAppTests_0123456789";
const AUTH_DATE_S = 1_795_000_000;
const REAL_SHAPED =
  "user=%7B%22id%22%3A7601%2C%22first_name%22%3A%22Ann%22%2C%22last_name%22%3A%22%22%2C%22username%22%3A%22ann_tron%22%2C%22language_code%22%3A%22ru%22%2C%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2FWv2Pan8AblvcXnRiYGif.svg%22%7D" +
  "&chat_instance=-5471737045128434439&chat_type=sender&auth_date=1795000000" +
  "&signature=Wn1Xo5OboCJ7X-KwCMsfhAp6okKjKMuoKKyYoYKskC9_F7h-5wIYoIlgA86kjFIZ3FKofmWXT0aTOmEl_fweDw" +
  "&hash=1dc7e6bacca403fad98a45fa3d6eefdadb61c4b9d519446af174478a70a95ecb";
const AT = { nowMs: (AUTH_DATE_S + 60) * 1000 };

describe("Mini App launch data", () => {
  it("accepts Telegram-shaped launch data signed with the bot token, hashing the values as received", () => {
    const checked = checkInitData(REAL_SHAPED, TOKEN, AT);
    expect(checked).toEqual({ ok: true, authDateS: AUTH_DATE_S, user: { id: 7601, firstName: "Ann", languageCode: "ru" } });
    // The escaped slashes and the signature are part of what is hashed.
    const check = dataCheckString(new URLSearchParams(REAL_SHAPED));
    expect(check).toContain('"photo_url":"https:\\/\\/t.me');
    expect(check.split("\n").map((line) => line.split("=")[0])).toEqual(["auth_date", "chat_instance", "chat_type", "signature", "user"]);
  });

  it("agrees with the test kit's signer", () => {
    const raw = signInitData(TOKEN, {
      user: { id: 42, first_name: "Bo/b", language_code: "zh-hans" },
      authDateS: AUTH_DATE_S,
      queryId: "AAHdF6IQAAAAAN0XohDhrOrc",
    });
    expect(checkInitData(raw, TOKEN, AT)).toMatchObject({ ok: true, user: { id: 42, firstName: "Bo/b", languageCode: "zh-hans" } });
  });

  it("refuses a forged hash, a changed field, another bot's token and a missing hash", () => {
    const flipped = REAL_SHAPED.replace(/hash=1/, "hash=2");
    expect(checkInitData(flipped, TOKEN, AT)).toEqual({ ok: false, reason: "bad_hash" });
    expect(checkInitData(REAL_SHAPED.replace("%3A7601%2C", "%3A7602%2C"), TOKEN, AT)).toEqual({ ok: false, reason: "bad_hash" });
    expect(checkInitData(REAL_SHAPED.replace("chat_type=sender", "chat_type=private"), TOKEN, AT)).toEqual({ ok: false, reason: "bad_hash" });
    expect(checkInitData(REAL_SHAPED, "7000000002:AAAnotherBotsToken_0123456789abcdef", AT)).toEqual({ ok: false, reason: "bad_hash" });
    expect(checkInitData(REAL_SHAPED.replace(/&hash=.*$/, ""), TOKEN, AT)).toEqual({ ok: false, reason: "malformed" });
    expect(checkInitData(`${REAL_SHAPED}&hash=${"0".repeat(64)}`, TOKEN, AT)).toEqual({ ok: false, reason: "malformed" });
    expect(checkInitData(undefined, TOKEN, AT)).toEqual({ ok: false, reason: "missing" });
    expect(checkInitData("", TOKEN, AT)).toEqual({ ok: false, reason: "missing" });
    expect(checkInitData("x".repeat(10_000), TOKEN, AT)).toEqual({ ok: false, reason: "malformed" });
  });

  it(`refuses launch data older than ${INIT_DATA_MAX_AGE_S} s or from the future, and takes it up to the bound`, () => {
    const at = (s: number) => ({ nowMs: s * 1000 });
    expect(checkInitData(REAL_SHAPED, TOKEN, at(AUTH_DATE_S + INIT_DATA_MAX_AGE_S)).ok).toBe(true);
    expect(checkInitData(REAL_SHAPED, TOKEN, at(AUTH_DATE_S + INIT_DATA_MAX_AGE_S + 1))).toEqual({ ok: false, reason: "expired" });
    expect(checkInitData(REAL_SHAPED, TOKEN, at(AUTH_DATE_S - 300)).ok).toBe(true);
    expect(checkInitData(REAL_SHAPED, TOKEN, at(AUTH_DATE_S - 301))).toEqual({ ok: false, reason: "future" });
    expect(checkInitData(REAL_SHAPED, TOKEN, { ...at(AUTH_DATE_S + 120), maxAgeS: 60 })).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses correctly signed launch data that names no user (or no usable one)", () => {
    expect(checkInitData(signInitData(TOKEN, { authDateS: AUTH_DATE_S, queryId: "Q" }), TOKEN, AT)).toEqual({ ok: false, reason: "no_user" });
    const noId = signInitData(TOKEN, { authDateS: AUTH_DATE_S, extra: { user: '{"first_name":"A"}' } });
    expect(checkInitData(noId, TOKEN, AT)).toEqual({ ok: false, reason: "no_user" });
    const notJson = signInitData(TOKEN, { authDateS: AUTH_DATE_S, extra: { user: "{id:1" } });
    expect(checkInitData(notJson, TOKEN, AT)).toEqual({ ok: false, reason: "no_user" });
    // Correctly signed, with a user, but no auth_date: its age cannot be told, so it is refused.
    const noDate = signInitData(TOKEN, { authDateS: undefined, user: { id: 1, first_name: "A" } });
    expect(checkInitData(noDate, TOKEN, AT)).toEqual({ ok: false, reason: "malformed" });
  });

  it("reads the language of unchecked data only to word a refusal", () => {
    expect(unverifiedLanguage(REAL_SHAPED.replace(/hash=1/, "hash=2"))).toBe("ru");
    expect(unverifiedLanguage("garbage")).toBeUndefined();
    expect(unverifiedLanguage(undefined)).toBeUndefined();
  });
});
