import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../src/config.js";

const minimal = {
  BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdef",
  SERVICE_BASE_URL: "http://127.0.0.1:9999/",
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
};

describe("expiry reminder settings (docs/expiry.md)", () => {
  it("default to 5 minutes ahead, at most half the duration, the schedule re-read every minute", () => {
    expect(parseConfig(minimal)).toMatchObject({ expiryReminderLeadMs: 300_000, expiryReminderMaxLeadPercent: 50, expiryReminderRescanMs: 60_000 });
  });

  it("are read from the environment and refused out of range", () => {
    const config = parseConfig({ ...minimal, EXPIRY_REMINDER_LEAD_SECONDS: "58", EXPIRY_REMINDER_MAX_LEAD_PERCENT: "99", EXPIRY_REMINDER_RESCAN_SECONDS: "1" });
    expect(config).toMatchObject({ expiryReminderLeadMs: 58_000, expiryReminderMaxLeadPercent: 99, expiryReminderRescanMs: 1_000 });
    expect(() => parseConfig({ ...minimal, EXPIRY_REMINDER_MAX_LEAD_PERCENT: "100" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...minimal, EXPIRY_REMINDER_LEAD_SECONDS: "0" })).toThrow(ConfigError);
  });
});
