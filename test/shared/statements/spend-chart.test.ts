import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIRECTORY } from "../../../src/bot/i18n.js";
import { createLogger } from "../../../src/platform/logger.js";
import { SUPPORTED_LOCALES } from "../../../src/config.js";
import { CHART_FONT_FILES, spendChartPng, spendChartSvg } from "../../../src/shared/statements/spend-chart.js";
import { foreignWords } from "../../support/foreign-words.js";

const dailySun = Array.from({ length: 30 }, (_, i) => BigInt(i % 7) * 1_500_000n);
const i18n = createI18n({
  defaultLocale: "en",
  directory: LOCALES_DIRECTORY,
  storedLocale: () => Promise.resolve(undefined),
  logger: createLogger({ level: "silent" }),
});
const monthName = (locale: string) => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(Date.UTC(2026, 10, 1));

/** The chart's texts in `locale`, as /statement passes them. */
function chartTexts(locale: string) {
  return {
    title: i18n.t(locale, "statement-chart-title", { month: monthName(locale) }),
    dayAxis: i18n.t(locale, "statement-chart-axis-day"),
    amountAxis: i18n.t(locale, "statement-chart-axis-trx"),
    locale,
  };
}

/** Pixels in a band of rows that are clearly darker than the white background. */
function darkPixels(png: PNG, fromY: number, toY: number): number {
  let dark = 0;
  for (let y = fromY; y < toY; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if ((png.data[i] ?? 255) < 128 && (png.data[i + 1] ?? 255) < 128 && (png.data[i + 2] ?? 255) < 128) dark++;
    }
  }
  return dark;
}

/** The code points a TrueType font maps (cmap formats 4 and 12). */
function mappedCodePoints(file: string): Set<number> {
  const font = readFileSync(file);
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let t = 0; t < tables; t++) if (font.toString("latin1", 12 + t * 16, 16 + t * 16) === "cmap") cmap = font.readUInt32BE(12 + t * 16 + 8);
  const points = new Set<number>();
  for (let s = 0; s < font.readUInt16BE(cmap + 2); s++) {
    const at = cmap + font.readUInt32BE(cmap + 4 + s * 8 + 4);
    const format = font.readUInt16BE(at);
    if (format === 4) {
      const segments = font.readUInt16BE(at + 6) / 2;
      for (let i = 0; i < segments; i++) {
        const end = font.readUInt16BE(at + 14 + i * 2);
        const start = font.readUInt16BE(at + 16 + segments * 2 + i * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) points.add(c);
      }
    } else if (format === 12) {
      for (let i = 0; i < font.readUInt32BE(at + 12); i++) {
        const group = at + 16 + i * 12;
        for (let c = font.readUInt32BE(group); c <= font.readUInt32BE(group + 4); c++) points.add(c);
      }
    }
  }
  return points;
}

describe("daily spend chart", () => {
  it("draws one bar per day with the month as its title", () => {
    const svg = spendChartSvg({ ...chartTexts("en"), dailySun });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("November 2026 · TRX per day");
    expect(svg).toContain(">30<");
  });

  it("is titled and its axes named in the chat's language, its amounts written the locale's way", () => {
    const ru = spendChartSvg({ ...chartTexts("ru"), dailySun: [...dailySun.slice(0, 29), 1_234_500_000n] });
    expect(ru).toContain("ноябрь 2026 г. · расходы по дням, TRX");
    expect(ru).toContain(">День<");
    expect(ru).toMatch(/>1\u00a0\d{3}</);
    expect(spendChartSvg({ ...chartTexts("zh"), dailySun })).toContain("2026年11月 · 每日支出（TRX）");
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
      const { title, dayAxis, amountAxis } = chartTexts(locale);
      expect(foreignWords([title, dayAxis, amountAxis].join(" ")), locale).toEqual([]);
    }
  });

  it("has a glyph in the shipped fonts for every character of every locale's chart texts", () => {
    const covered = new Set(CHART_FONT_FILES.flatMap((file) => [...mappedCodePoints(file)]));
    for (const locale of SUPPORTED_LOCALES) {
      const { title, dayAxis, amountAxis } = chartTexts(locale);
      // Code points, not graphemes: a font maps code points.
      const missing = Array.from(`${title}${dayAxis}${amountAxis}0123456789,. \u00a0`).filter((c) => !covered.has(c.codePointAt(0)!));
      expect(missing, `${locale} (run scripts/chart-fonts.sh)`).toEqual([]);
    }
  });

  it("renders a PNG whose title is drawn with the shipped fonts, system fonts not loaded", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const png = PNG.sync.read(spendChartPng({ ...chartTexts(locale), dailySun }));
      expect(png.width).toBe(900);
      expect(png.height).toBe(480);
      // The title band holds nothing but text: dark pixels there mean the glyphs were found.
      expect(darkPixels(png, 10, 40), locale).toBeGreaterThan(200);
    }
  });

  it("renders an all-zero month", () => {
    const png = PNG.sync.read(spendChartPng({ ...chartTexts("en"), dailySun: Array.from({ length: 28 }, () => 0n) }));
    expect(png.width).toBeGreaterThan(0);
  });
});
