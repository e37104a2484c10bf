/**
 * The daily spend of a month as a PNG: an echarts bar chart rendered to SVG
 * on the server (no browser, no canvas) and rasterised by resvg. Its text is
 * digits and Latin only ("2026-11 · TRX per day", day numbers, amounts), drawn
 * with the DejaVu Sans subset shipped in assets/fonts, so it renders the same
 * on a machine or image with no system fonts; the localized words go in the
 * message beside it.
 */
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import * as echarts from "echarts";
import { trxFixed } from "./statement-rows.js";

export const CHART_FONT_FILE = fileURLToPath(new URL("../../../assets/fonts/DejaVuSans-Latin.ttf", import.meta.url));
const CHART_FONT_FAMILY = "DejaVu Sans";
const WIDTH = 900;
const HEIGHT = 480;

export interface SpendChartInput {
  /** "2026-11" */
  title: string;
  /** Net sun per day, index 0 the 1st. */
  dailySun: readonly bigint[];
}

/** The chart's SVG (a separate step so tests and tools can read it). */
export function spendChartSvg(input: SpendChartInput): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: WIDTH, height: HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: "#ffffff",
      textStyle: { fontFamily: CHART_FONT_FAMILY },
      title: { text: `${input.title} · TRX per day`, left: "center", top: 12, textStyle: { fontFamily: CHART_FONT_FAMILY, fontSize: 18 } },
      grid: { left: 70, right: 24, top: 56, bottom: 44 },
      xAxis: { type: "category", data: input.dailySun.map((_, i) => String(i + 1)), axisLabel: { interval: 0, fontSize: 11 } },
      yAxis: { type: "value", axisLabel: { fontSize: 11 } },
      // Bar heights only: the exact amounts are in the CSV and the summary, never read back from here.
      series: [{ type: "bar", data: input.dailySun.map((sun) => Number(trxFixed(sun))), itemStyle: { color: "#d9453d" }, barMaxWidth: 22 }],
    });
    return chart.renderToSVGString();
  } finally {
    // Without it echarts keeps a timer that holds the process open.
    chart.dispose();
  }
}

export function spendChartPng(input: SpendChartInput): Buffer {
  const svg = spendChartSvg(input);
  const resvg = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [CHART_FONT_FILE], defaultFontFamily: CHART_FONT_FAMILY } });
  return resvg.render().asPng();
}
