import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { spendChartPng, spendChartSvg } from "../../../src/core/statements/spend-chart.js";

const dailySun = Array.from({ length: 30 }, (_, i) => BigInt(i % 7) * 1_500_000n);

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

describe("daily spend chart", () => {
  it("draws one bar per day with the month as its title", () => {
    const svg = spendChartSvg({ title: "2026-11", dailySun });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("2026-11 · TRX per day");
    expect(svg).toContain(">30<");
  });

  it("renders a PNG whose title is drawn with the shipped font, system fonts not loaded", () => {
    const png = PNG.sync.read(spendChartPng({ title: "2026-11", dailySun }));
    expect(png.width).toBe(900);
    expect(png.height).toBe(480);
    // The title band holds nothing but text: dark pixels there mean the glyphs were found.
    expect(darkPixels(png, 10, 40)).toBeGreaterThan(200);
  });

  it("renders an all-zero month", () => {
    const png = PNG.sync.read(spendChartPng({ title: "2027-02", dailySun: Array.from({ length: 28 }, () => 0n) }));
    expect(png.width).toBeGreaterThan(0);
  });
});
