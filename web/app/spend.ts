/**
 * Spend: a month's daily net spend as a bar chart the page draws itself, as SVG, with the layout, bar colour
 * and words of /statement's PNG (the API hands them over from the same module the PNG uses); echarts itself
 * would be most of a megabyte on a phone. Bar heights are only scaled here: every amount the user reads is
 * the server's exact one. A tap on a day lists that day's lines to the sun.
 */
import { beginScreen, button, el, getJson, linkTo, screen, showError, t, tabs, type Me } from "./ui.js";

interface SpendDay {
  day: number;
  sun: string;
  /** Six-decimal TRX: only scaled into a bar's height. */
  trx: string;
  text: string;
}

interface SpendLine {
  day: number;
  time: string;
  id: string;
  kind: "order" | "broadcast" | "refund";
  kindText: string;
  receiver: string | null;
  costSun: string;
  costTrx: string;
  status: string;
  statusText: string;
  explorerUrl: string | null;
}

interface Layout {
  width: number;
  height: number;
  grid: { left: number; right: number; top: number; bottom: number };
  titleTop: number;
  titleFontSize: number;
  axisFontSize: number;
  dayAxisNameGap: number;
  barColor: string;
  barMaxWidth: number;
}

interface SpendMonth {
  month: string;
  monthName: string;
  prev: string;
  next: string | null;
  title: string;
  dayAxis: string;
  amountAxis: string;
  caption: string;
  layout: Layout;
  days: SpendDay[];
  lines: SpendLine[];
  summary: string | null;
  empty: string | null;
}

const SVG = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Round steps (1, 2, 5 × 10ⁿ) covering [min, max] in about five ticks, as a value axis chooses them. */
export function niceTicks(min: number, max: number): number[] {
  const lo = Math.min(0, min);
  const hi = Math.max(max, 0);
  const span = hi - lo || 1;
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step + step / 2; v += step) ticks.push(Number(v.toFixed(6)));
  return ticks;
}

/**
 * The PNG's geometry at half its size, its type at full size: on a phone's 360–430 px the PNG's 11 px labels
 * would shrink to 5 px. Day labels thin out to 1, 5, 10 … when a day's band is narrower than a label.
 */
const PHONE_SCALE = 0.5;

function chart(data: SpendMonth, locale: string, onDay: (day: number) => void): SVGSVGElement {
  const L = data.layout;
  const s = PHONE_SCALE;
  const width = L.width * s;
  // Room under the day labels for the axis' name, which the PNG's margin holds at full size.
  const height = L.height * s + L.axisFontSize;
  const x0 = L.grid.left * s;
  const x1 = width - L.grid.right * s;
  const y0 = L.grid.top * s;
  const y1 = height - L.grid.bottom * s - L.axisFontSize;
  const values = data.days.map((d) => Number(d.trx));
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  const y = (v: number) => y1 - ((v - lo) / (hi - lo || 1)) * (y1 - y0);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 });
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", id: "spend-chart", role: "img", "aria-label": data.title });
  root.append(
    svg(
      "text",
      { x: width / 2, y: L.titleTop * s + L.titleFontSize * 0.8, "text-anchor": "middle", "font-size": L.titleFontSize * 0.8, class: "chart-title" },
      data.title,
    ),
  );
  for (const tick of ticks) {
    root.append(svg("line", { x1: x0, x2: x1, y1: y(tick), y2: y(tick), class: "chart-grid" }));
    root.append(svg("text", { x: x0 - 5, y: y(tick) + 4, "text-anchor": "end", "font-size": L.axisFontSize, class: "chart-label" }, number.format(tick)));
  }
  root.append(svg("text", { x: x0, y: y0 - 8, "text-anchor": "middle", "font-size": L.axisFontSize, class: "chart-label" }, data.amountAxis));
  root.append(svg("line", { x1: x0, x2: x1, y1: y(0), y2: y(0), class: "chart-axis" }));
  const band = (x1 - x0) / Math.max(1, data.days.length);
  // As a category axis draws bars: 20% of each band is the gap, the bar no wider than the PNG's.
  const barWidth = Math.min(L.barMaxWidth * s, band * 0.8);
  const every = band < L.axisFontSize * 1.4 ? 5 : 1;
  data.days.forEach((d, i) => {
    const cx = x0 + band * (i + 0.5);
    const v = values[i] ?? 0;
    const top = Math.min(y(v), y(0));
    const group = svg("g", { class: "chart-day", "data-day": d.day, "data-sun": d.sun, tabindex: 0, role: "button", "aria-label": `${d.day}: ${d.text} TRX` });
    // The whole band answers a tap: a day with a thin bar (or none) is as easy to hit.
    group.append(svg("rect", { x: x0 + band * i, y: y0, width: band, height: y1 - y0, class: "chart-hit" }));
    if (v !== 0)
      group.append(
        svg("rect", { x: cx - barWidth / 2, y: top, width: barWidth, height: Math.max(1, Math.abs(y(v) - y(0))), fill: L.barColor, class: "chart-bar" }),
      );
    if (d.day === 1 || d.day % every === 0)
      group.append(
        svg("text", { x: cx, y: y1 + L.axisFontSize + 3, "text-anchor": "middle", "font-size": L.axisFontSize, class: "chart-label" }, String(d.day)),
      );
    group.addEventListener("click", () => onDay(d.day));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") onDay(d.day);
    });
    root.append(group);
  });
  root.append(
    svg(
      "text",
      { x: (x0 + x1) / 2, y: y1 + L.axisFontSize * 2 + 8, "text-anchor": "middle", "font-size": L.axisFontSize + 1, class: "chart-label" },
      data.dayAxis,
    ),
  );
  return root;
}

function dayLines(data: SpendMonth, day: number, box: HTMLElement, root: SVGSVGElement): void {
  for (const g of root.querySelectorAll(".chart-day")) g.setAttribute("aria-pressed", String(g.getAttribute("data-day") === String(day)));
  const total = data.days[day - 1];
  const lines = data.lines.filter((l) => l.day === day);
  const items = lines.map((l) => {
    const item = el(
      "li",
      { class: "row", "data-id": l.id, "data-kind": l.kind, "data-cost-sun": l.costSun },
      el("span", { class: `badge status-${l.status}` }, l.statusText),
      el("p", { class: "row-text" }, `${l.time} · ${l.kindText}${l.receiver ? ` · ${l.receiver}` : ""}`),
      el("p", { class: "row-text" }, `${l.costTrx} TRX`, el("span", { class: "hint mono" }, ` ${t("mini-app-exact-sun", { sun: l.costSun })}`)),
    );
    if (l.explorerUrl) item.append(linkTo(l.explorerUrl));
    return item;
  });
  box.replaceChildren(
    el("h2", { id: "day-title" }, t("mini-app-spend-day", { day, month: data.monthName, total: total?.text ?? "0" })),
    lines.length === 0 ? el("p", { class: "status", id: "day-empty" }, t("mini-app-spend-day-empty")) : el("ol", { class: "rows", id: "day-lines" }, ...items),
  );
}

export async function drawSpend(me: Me, month: string | undefined): Promise<void> {
  beginScreen();
  let data: SpendMonth;
  try {
    data = await getJson<SpendMonth>(`/app/api/spend${month === undefined ? "" : `?month=${encodeURIComponent(month)}`}`);
  } catch (error) {
    showError(error, () => void drawSpend(me, month));
    return;
  }
  const prev = button("spend-prev", t("mini-app-spend-prev"), () => void drawSpend(me, data.prev));
  const next = button("spend-next", t("mini-app-spend-next"), () => void (data.next && drawSpend(me, data.next)));
  next.disabled = data.next === null;
  const parts: Node[] = [
    tabs(me, "spend"),
    el("h1", {}, t("mini-app-tab-spend")),
    el("div", { class: "pager", id: "spend-months" }, prev, el("span", { id: "spend-month", "data-month": data.month }, data.monthName), next),
  ];
  if (data.empty !== null) parts.push(el("p", { class: "status", id: "spend-empty" }, data.empty));
  else {
    const box = el("section", { class: "day", id: "day" }, el("p", { class: "hint" }, t("mini-app-spend-tap")));
    const root = chart(data, me.locale, (day) => dayLines(data, day, box, root));
    parts.push(
      el("figure", { class: "chart-card" }, root, el("figcaption", { class: "hint", id: "spend-caption" }, data.caption)),
      box,
      el("section", { class: "summary", id: "spend-summary" }, data.summary ?? ""),
    );
  }
  screen.replaceChildren(...parts);
}
