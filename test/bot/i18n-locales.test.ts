/**
 * Translations by locale outside an update (notifiers): each locale gets its
 * own texts, alternating at will, an unknown one the default's; a locale is
 * its directory's files, and an id a locale lacks reads the default's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("reads each locale's directory as one translation, and a region of it as the locale", () => {
    const directory = mkdtempSync(join(tmpdir(), "locales-"));
    try {
      mkdirSync(join(directory, "en"));
      mkdirSync(join(directory, "eo"));
      writeFileSync(join(directory, "en", "a.ftl"), "greeting = Hello\nfarewell = Bye\n");
      writeFileSync(join(directory, "eo", "a.ftl"), "greeting = Saluton\n");
      writeFileSync(join(directory, "eo", "b.ftl"), "farewell = Ĝis\n");
      const local = createI18n({ defaultLocale: "en", directory, storedLocale: () => Promise.resolve(undefined), logger: pino({ level: "silent" }) });
      expect(local.t("eo", "greeting")).toBe("Saluton");
      expect(local.t("eo", "farewell")).toBe("Ĝis");
      expect(local.t("EO-x-test", "greeting")).toBe("Saluton");
      expect(local.t("en", "greeting")).toBe("Hello");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("falls back to the default locale's text for an id a locale lacks, and shows an id nobody has as {id}, logging both", () => {
    const directory = mkdtempSync(join(tmpdir(), "locales-"));
    const warnings: unknown[] = [];
    try {
      mkdirSync(join(directory, "en"));
      mkdirSync(join(directory, "ru"));
      writeFileSync(join(directory, "en", "a.ftl"), "only-english = Hi\nwith-attribute = Text\n    .hint = A hint\n");
      writeFileSync(join(directory, "ru", "a.ftl"), "other = Привет\n");
      const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
      const local = createI18n({ defaultLocale: "en", directory, storedLocale: () => Promise.resolve(undefined), logger });
      expect(local.t("ru", "only-english")).toBe("Hi");
      expect(local.t("ru", "with-attribute.hint")).toBe("A hint");
      expect(local.t("ru", "nowhere")).toBe("{nowhere}");
      expect(warnings).toContainEqual(expect.objectContaining({ msg: "missing translation", i18n: { path: "only-english", locale: "ru" } }));
      expect(warnings).toContainEqual(expect.objectContaining({ msg: "missing translation", i18n: { path: "nowhere", locale: "en" } }));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
