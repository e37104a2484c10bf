/**
 * Translations by locale outside an update (notifiers): each locale gets its
 * own texts, alternating at will, an unknown one the default's, and a locale
 * loaded later is found.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../src/bot/i18n.js";

const i18n = createI18n({ defaultLocale: "en", storedLocale: () => Promise.resolve(undefined), logger: pino({ level: "silent" }) });

describe("translations by locale", () => {
  it("gives each locale its own text, however the calls alternate", () => {
    const english = i18n.t("en", "help-title-private");
    const russian = i18n.t("ru", "help-title-private");
    const chinese = i18n.t("zh", "help-title-private");
    expect(new Set([english, russian, chinese]).size).toBe(3);
    for (let round = 0; round < 3; round += 1) {
      expect(i18n.t("ru", "help-title-private")).toBe(russian);
      expect(i18n.t("en", "help-title-private")).toBe(english);
      expect(i18n.t("zh", "help-title-private")).toBe(chinese);
    }
  });

  it("falls back to the default locale for a locale it has no bundle for", () => {
    expect(i18n.t("de", "help-title-private")).toBe(i18n.t("en", "help-title-private"));
  });

  it("finds a locale loaded after the first translations", () => {
    const local = createI18n({ defaultLocale: "en", storedLocale: () => Promise.resolve(undefined), logger: pino({ level: "silent" }) });
    expect(local.t("eo", "help-title-private")).toBe(local.t("en", "help-title-private"));
    local.loadLocaleSync("eo", { source: "help-title-private = Saluton" });
    expect(local.t("eo", "help-title-private")).toBe("Saluton");
  });
});
