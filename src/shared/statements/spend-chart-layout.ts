/**
 * The spend chart's look, shared by the bot's PNG (spend-chart.ts, drawn by echarts on the server) and the
 * Mini App's Spend screen (drawn as SVG by the page, which cannot carry echarts' size): one size, margins,
 * bar colour and width, so both draw the same bars.
 */
export const SPEND_CHART_LAYOUT = {
  width: 900,
  height: 480,
  grid: { left: 70, right: 24, top: 64, bottom: 56 },
  titleTop: 12,
  titleFontSize: 18,
  axisFontSize: 11,
  /** The day axis' name sits this far below the axis line. */
  dayAxisNameGap: 30,
  barColor: "#d9453d",
  barMaxWidth: 22,
} as const;
