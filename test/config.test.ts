import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, parseStorageConfig } from "../src/config.js";

const KEY = Buffer.alloc(32, 7).toString("base64");
const minimal = {
  BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdef",
  SERVICE_BASE_URL: "http://127.0.0.1:9999/",
  ENCRYPTION_KEY: KEY,
};

describe("parseConfig", () => {
  it("applies the documented defaults to a minimal environment", () => {
    const config = parseConfig(minimal);
    expect(config.telegramApiRoot).toBe("https://api.telegram.org");
    expect(config.serviceBaseUrl).toBe("http://127.0.0.1:9999");
    expect(config.storageUrl).toBe("sqlite://data/bot.sqlite");
    expect(config.httpPort).toBe(8080);
    expect(config.serviceHeaderPrefix).toBe("X-Service");
    expect(config.defaultLocale).toBe("en");
    expect(config.logLevel).toBe("info");
    expect(config.botMode).toBe("polling");
    expect(config.publicUrl).toBeUndefined();
    expect(config.encryptionKey.length).toBe(32);
    expect(config.encryptionKeyPrevious).toBeUndefined();
  });

  it("reads every optional variable", () => {
    const config = parseConfig({
      ...minimal,
      TELEGRAM_API_ROOT: "http://127.0.0.1:8081",
      ENCRYPTION_KEY_PREVIOUS: Buffer.alloc(32, 9).toString("base64"),
      STORAGE_URL: "redis://127.0.0.1:6379",
      HTTP_PORT: "9090",
      PUBLIC_URL: "https://bot.example.com/",
      SERVICE_HEADER_PREFIX: "X-Energy",
      LOG_LEVEL: "debug",
      DEFAULT_LOCALE: "ru",
    });
    expect(config).toMatchObject({
      telegramApiRoot: "http://127.0.0.1:8081",
      storageUrl: "redis://127.0.0.1:6379",
      httpPort: 9090,
      publicUrl: "https://bot.example.com",
      serviceHeaderPrefix: "X-Energy",
      logLevel: "debug",
      defaultLocale: "ru",
    });
    expect(config.encryptionKeyPrevious?.length).toBe(32);
  });

  it.each([
    ["BOT_TOKEN", { BOT_TOKEN: undefined }, /^BOT_TOKEN is required$/],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: undefined }, /^SERVICE_BASE_URL is required$/],
    ["ENCRYPTION_KEY", { ENCRYPTION_KEY: undefined }, /^ENCRYPTION_KEY is required$/],
    ["ENCRYPTION_KEY", { ENCRYPTION_KEY: "c2hvcnQ=" }, /^ENCRYPTION_KEY must be 32 random bytes/],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: "ftp://x" }, /^SERVICE_BASE_URL /],
    ["HTTP_PORT", { HTTP_PORT: "70000" }, /^HTTP_PORT /],
    ["STORAGE_URL", { STORAGE_URL: "mysql://x" }, /^STORAGE_URL must start with/],
    ["DEFAULT_LOCALE", { DEFAULT_LOCALE: "de" }, /^DEFAULT_LOCALE /],
  ])("stops with one line naming %s", (_name, patch, message) => {
    expect(() => parseConfig({ ...minimal, ...patch })).toThrow(ConfigError);
    expect(() => parseConfig({ ...minimal, ...patch })).toThrow(message);
  });

  it("links Tronscan unless EXPLORER_URL says otherwise; DASHBOARD_URL and SUPPORT_URL only when set, http(s) only", () => {
    const plain = parseConfig(minimal);
    expect(plain.explorerUrl).toBe("https://tronscan.org/#");
    expect(plain.dashboardUrl).toBeUndefined();
    expect(plain.supportUrl).toBeUndefined();
    const set = parseConfig({
      ...minimal,
      EXPLORER_URL: "https://nile.tronscan.org/#/",
      DASHBOARD_URL: "https://app.example.com/keys",
      SUPPORT_URL: "https://t.me/support",
    });
    expect(set).toMatchObject({ explorerUrl: "https://nile.tronscan.org/#", dashboardUrl: "https://app.example.com/keys", supportUrl: "https://t.me/support" });
    expect(parseConfig({ ...minimal, DASHBOARD_URL: "" }).dashboardUrl).toBeUndefined();
    for (const [name, value] of [
      ["EXPLORER_URL", "tronscan.org"],
      ["DASHBOARD_URL", "javascript:alert(1)"],
      ["SUPPORT_URL", "tg://resolve?domain=support"],
    ] as const) {
      expect(() => parseConfig({ ...minimal, [name]: value })).toThrow(new RegExp(`^${name} `));
    }
  });

  it("reads STORAGE_PREFIX, empty (keys as before) unless set, and refuses one that could reach into other keys", () => {
    expect(parseConfig(minimal).storagePrefix).toBe("");
    expect(parseConfig({ ...minimal, STORAGE_PREFIX: "bot-a" }).storagePrefix).toBe("bot-a");
    expect(parseStorageConfig({ ENCRYPTION_KEY: minimal.ENCRYPTION_KEY, STORAGE_PREFIX: "bot_b" }).storagePrefix).toBe("bot_b");
    for (const bad of ["a/b", "a:b", "bot*", "-a"])
      expect(() => parseConfig({ ...minimal, STORAGE_PREFIX: bad })).toThrow(/^STORAGE_PREFIX must be 1 to 40 letters/);
  });

  it("reads the spend limits' default zone, UTC unless set, and refuses an unknown one", () => {
    expect(parseConfig(minimal).limitsTimeZone).toBe("UTC");
    expect(parseConfig({ ...minimal, LIMITS_TIME_ZONE: "Europe/Moscow" }).limitsTimeZone).toBe("Europe/Moscow");
    expect(() => parseConfig({ ...minimal, LIMITS_TIME_ZONE: "Mars/Olympus" })).toThrow(/LIMITS_TIME_ZONE/);
  });

  it("reads the statements' energy burn price: 100 sun per energy unless set, a positive whole number", () => {
    expect(parseConfig(minimal).energyBurnPriceSun).toBe(100);
    expect(parseConfig({ ...minimal, ENERGY_BURN_PRICE_SUN: "420" }).energyBurnPriceSun).toBe(420);
    for (const bad of ["0", "1.5", "-100", "lots"]) expect(() => parseConfig({ ...minimal, ENERGY_BURN_PRICE_SUN: bad })).toThrow(/ENERGY_BURN_PRICE_SUN/);
  });

  it("reads the shared tracking's lease, scan, spread and read rate, and refuses a lease that would lapse between two scans", () => {
    expect(parseConfig(minimal).tracking).toEqual({
      leaseTtlMs: 15_000,
      scanIntervalMs: 5_000,
      spreadMaxMs: 10_000,
      maxReadsPerSecond: 100,
      notFoundGraceMs: 600_000,
      notFoundReads: 5,
    });
    expect(
      parseConfig({
        ...minimal,
        TRACKING_LEASE_TTL_MS: "4000",
        TRACKING_SCAN_MS: "2000",
        TRACKING_SPREAD_MAX_MS: "0",
        TRACKING_MAX_READS_PER_SECOND: "25",
        TRACKING_NOT_FOUND_GRACE_MS: "0",
        TRACKING_NOT_FOUND_READS: "2",
      }).tracking,
    ).toEqual({
      leaseTtlMs: 4_000,
      scanIntervalMs: 2_000,
      spreadMaxMs: 0,
      maxReadsPerSecond: 25,
      notFoundGraceMs: 0,
      notFoundReads: 2,
    });
    for (const bad of ["0", "2.5", "fast"])
      expect(() => parseConfig({ ...minimal, TRACKING_MAX_READS_PER_SECOND: bad })).toThrow(/TRACKING_MAX_READS_PER_SECOND/);
    expect(() => parseConfig({ ...minimal, TRACKING_LEASE_TTL_MS: "3000", TRACKING_SCAN_MS: "2000" })).toThrow(
      /TRACKING_LEASE_TTL_MS must be at least twice TRACKING_SCAN_MS/,
    );
    expect(() => parseConfig({ ...minimal, TRACKING_LEASE_TTL_MS: "20000" })).not.toThrow();
    for (const bad of ["0", "1.5", "soon"]) expect(() => parseConfig({ ...minimal, TRACKING_SCAN_MS: bad })).toThrow(/TRACKING_SCAN_MS/);
  });

  it("never prints a secret's value in its error", () => {
    const secretLooking = "TOP-SECRET-VALUE-NOT-BASE64!!";
    try {
      parseConfig({ ...minimal, ENCRYPTION_KEY: secretLooking, BOT_TOKEN: "bad token value" });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain(secretLooking);
      expect(String(error)).not.toContain("bad token value");
    }
  });

  it("lists every missing or invalid variable in one error, in the schema's order, never a value", () => {
    let error: unknown;
    try {
      parseConfig({ HTTP_PORT: "99999", ENCRYPTION_KEY: "c2hvcnQtVkFMVUU=", LOG_LEVEL: "loud" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(" ")[0])).toEqual(["BOT_TOKEN", "SERVICE_BASE_URL", "ENCRYPTION_KEY", "HTTP_PORT", "LOG_LEVEL"]);
    expect(problems.slice(0, 2)).toEqual(["BOT_TOKEN is required", "SERVICE_BASE_URL is required"]);
    expect((error as ConfigError).message).toBe(problems.join("; "));
    expect(String(error)).not.toContain("c2hvcnQtVkFMVUU=");
    expect(String(error)).not.toContain("99999");
    expect(String(error)).not.toContain("loud");
  });

  it("refuses .env.example copied as it is, with one line naming its placeholders (never their values)", () => {
    const text = readFileSync(join(import.meta.dirname, "..", ".env.example"), "utf8");
    const copied = Object.fromEntries(
      text
        .split("\n")
        .map((line) => /^([A-Z][A-Z0-9_]*)=(\S*)/.exec(line))
        .filter((m) => m !== null)
        .map((m) => [m[1]!, m[2]!]),
    );
    expect(Object.keys(copied)).toEqual(["BOT_TOKEN", "SERVICE_BASE_URL", "ENCRYPTION_KEY"]);
    let error: unknown;
    try {
      // The key is the one line a newcomer fills in by running the command written above it.
      parseConfig({ ...copied, ENCRYPTION_KEY: KEY });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "BOT_TOKEN is the placeholder of .env.example; set the token @BotFather gave you",
      "SERVICE_BASE_URL is an example address (as in .env.example); set the real one",
    ]);
    expect((error as ConfigError).message).not.toContain("\n");
    for (const value of [copied["BOT_TOKEN"]!, copied["SERVICE_BASE_URL"]!]) expect((error as ConfigError).message).not.toContain(value);
  });

  it.each([
    ["BOT_TOKEN", { BOT_TOKEN: "123456:replace-with-the-token-from-BotFather" }],
    ["BOT_TOKEN", { BOT_TOKEN: "123456789:YOUR_TOKEN_FROM_BOTFATHER_HERE" }],
    ["BOT_TOKEN", { BOT_TOKEN: "110201543:placeholder-placeholder-placeholder" }],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: "https://api.example.com" }],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: "https://example.org/v1" }],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: "https://energy.example" }],
    ["SERVICE_BASE_URL", { SERVICE_BASE_URL: "https://api.example-energy-service.com" }],
    ["TELEGRAM_API_ROOT", { TELEGRAM_API_ROOT: "https://telegram.invalid" }],
  ])("refuses an obvious example in %s", (variable, patch) => {
    expect(() => parseConfig({ ...minimal, ...patch })).toThrow(new RegExp(`^${variable} is (the placeholder|an example)`));
  });

  it("accepts real-looking tokens and addresses that merely contain the letters of an example", () => {
    for (let i = 0; i < 50; i += 1) {
      const token = `${7_000_000_000 + i}:${randomBytes(26).toString("base64url").slice(0, 35)}`;
      expect(parseConfig({ ...minimal, BOT_TOKEN: token }).botToken).toBe(token);
    }
    expect(parseConfig({ ...minimal, SERVICE_BASE_URL: "https://counterexample.io/api" }).serviceBaseUrl).toBe("https://counterexample.io/api");
    expect(parseConfig({ ...minimal, SERVICE_BASE_URL: "https://examples-energy.net" }).serviceBaseUrl).toBe("https://examples-energy.net");
  });

  it("reports the checks across variables together with the rest", () => {
    const e = (() => {
      try {
        parseConfig({ BOT_MODE: "webhook", ENCRYPTION_KEY: KEY, BOT_TOKEN: minimal.BOT_TOKEN });
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error("parseConfig accepted it");
    })();
    expect(e.problems).toEqual([
      "SERVICE_BASE_URL is required",
      "PUBLIC_URL is required when BOT_MODE=webhook",
      "TELEGRAM_WEBHOOK_SECRET is required when BOT_MODE=webhook (e.g. `openssl rand -hex 32`)",
    ]);
  });

  it("requires PUBLIC_URL in webhook mode", () => {
    expect(() => parseConfig({ ...minimal, BOT_MODE: "webhook" })).toThrow(/^PUBLIC_URL is required/);
  });

  it("refuses webhook mode without TELEGRAM_WEBHOOK_SECRET: /telegram would take updates from anyone", () => {
    const webhook = { ...minimal, BOT_MODE: "webhook", PUBLIC_URL: "https://bot.example.com" };
    expect(() => parseConfig(webhook)).toThrow(ConfigError);
    expect(() => parseConfig(webhook)).toThrow(/^TELEGRAM_WEBHOOK_SECRET is required when BOT_MODE=webhook/);
    expect(() => parseConfig({ ...webhook, TELEGRAM_WEBHOOK_SECRET: "" })).toThrow(/^TELEGRAM_WEBHOOK_SECRET is required/);
    expect(parseConfig({ ...webhook, TELEGRAM_WEBHOOK_SECRET: "s3cret_-token" }).telegramWebhookSecret).toBe("s3cret_-token");
  });

  it("reads the /metrics protection: a bearer token and a listener of its own", () => {
    const config = parseConfig({ ...minimal, METRICS_TOKEN: "m".repeat(32), METRICS_PORT: "9464" });
    expect(config).toMatchObject({ metricsToken: "m".repeat(32), metricsPort: 9464, metricsHost: "127.0.0.1" });
    expect(parseConfig(minimal)).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(() => parseConfig({ ...minimal, METRICS_TOKEN: "short" })).toThrow(/^METRICS_TOKEN must be 16 to 256 printable characters/);
    expect(() => parseConfig({ ...minimal, METRICS_PORT: "70000" })).toThrow(/^METRICS_PORT /);
  });

  it("accepts BOT_MODE=worker only over Redis, where the queues are shared", () => {
    expect(parseConfig({ ...minimal, BOT_MODE: "worker", STORAGE_URL: "redis://127.0.0.1:6379/2" }).botMode).toBe("worker");
    expect(parseConfig({ ...minimal, BOT_MODE: "worker", STORAGE_URL: "rediss://cache.example:6380" }).botMode).toBe("worker");
    expect(() => parseConfig({ ...minimal, BOT_MODE: "worker" })).toThrow(/^STORAGE_URL must be redis:\/\/ or rediss:\/\/ when BOT_MODE=worker$/);
    expect(() => parseConfig({ ...minimal, BOT_MODE: "worker", STORAGE_URL: "postgres://db/bot" })).toThrow(ConfigError);
  });
});

describe("parseStorageConfig", () => {
  it("needs only the storage and encryption variables", () => {
    const config = parseStorageConfig({ ENCRYPTION_KEY: KEY });
    expect(config.storageUrl).toBe("sqlite://data/bot.sqlite");
    expect(config.encryptionKey.length).toBe(32);
  });

  it("still names a missing encryption key", () => {
    expect(() => parseStorageConfig({ BOT_TOKEN: minimal.BOT_TOKEN })).toThrow(/^ENCRYPTION_KEY is required$/);
  });
});
