/**
 * The daily spend of a month as a PNG: an echarts bar chart rendered to SVG
 * on the server (no browser, no canvas) and rasterised by resvg. Its title and
 * axis names come from the chat's locale and its amounts are written the
 * locale's way; they are drawn with the font subsets shipped in assets/fonts
 * (DejaVu Sans for Latin and Cyrillic, WenQuanYi Micro Hei for the Chinese
 * characters of the zh texts, see scripts/chart-fonts.sh), so it renders the
 * same on a machine or image with no system fonts.
 */
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import * as echarts from "echarts";
import { formatDecimal } from "../money.js";
import { SPEND_CHART_LAYOUT as L } from "./spend-chart-layout.js";
import { trxFixed } from "./statement-rows.js";

const font = (file: string) => fileURLToPath(new URL(`../../../assets/fonts/${file}`, import.meta.url));
export const CHART_FONT_FILES = [font("DejaVuSans-LatinCyrillic.ttf"), font("WenQuanYiMicroHei-Chart.ttf")];
const CHART_FONT_FAMILY = "DejaVu Sans";
/** resvg picks the first family that has a character's glyph. */
const CHART_FONT_STACK = "'DejaVu Sans', 'WenQuanYi Micro Hei'";
const WIDTH = L.width;
const HEIGHT = L.height;

export interface SpendChartInput {
  /** In the chat's language: "ноябрь 2026 г. · расходы по дням, TRX". */
  title: string;
  /** Axis names in the chat's language. */
  dayAxis: string;
  amountAxis: string;
  /** Writes the amount axis' numbers ("1 234,5" in ru). */
  locale: string;
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
      textStyle: { fontFamily: CHART_FONT_STACK },
      title: { text: input.title, left: "center", top: L.titleTop, textStyle: { fontFamily: CHART_FONT_STACK, fontSize: L.titleFontSize } },
      grid: { ...L.grid },
      xAxis: {
        type: "category",
        name: input.dayAxis,
        nameLocation: "middle",
        nameGap: L.dayAxisNameGap,
        data: input.dailySun.map((_, i) => String(i + 1)),
        axisLabel: { interval: 0, fontSize: L.axisFontSize },
      },
      yAxis: {
        type: "value",
        name: input.amountAxis,
        axisLabel: { fontSize: L.axisFontSize, formatter: (value: number) => formatDecimal(axisNumber(value), input.locale) },
      },
      // Bar heights only: the exact amounts are in the CSV and the summary, never read back from here.
      series: [{ type: "bar", data: input.dailySun.map((sun) => Number(trxFixed(sun))), itemStyle: { color: L.barColor }, barMaxWidth: L.barMaxWidth }],
    });
    return chart.renderToSVGString();
  } finally {
    // Without it echarts keeps a timer that holds the process open.
    chart.dispose();
  }
}

/** An axis tick (a float echarts chose) as a plain decimal string: 0.30000000000000004 -> "0.3". */
function axisNumber(value: number): string {
  return String(Number(value.toFixed(6)));
}

export function spendChartPng(input: SpendChartInput): Buffer {
  const svg = spendChartSvg(input);
  const resvg = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: CHART_FONT_FILES, defaultFontFamily: CHART_FONT_FAMILY } });
  return resvg.render().asPng();
}
