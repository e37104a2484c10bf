/**
 * The Mini App (docs/mini-app.md): reads Telegram's launch data from the URL's hash, sends it with every API
 * call (`X-Telegram-Init-Data`, same-origin relative URLs, no cookies), and draws the screens from what the
 * API returns. Words and amounts arrive rendered by the server; the page only places them.
 */
import { drawAddresses, drawLimits } from "./forms.js";
import { drawKeep, drawKeepEdit } from "./keep.js";
import { drawSend } from "./send.js";
import { drawSpend } from "./spend.js";
import {
  addTexts,
  beginScreen,
  call,
  drawBalance,
  el,
  host,
  initData,
  linkTo,
  post,
  primary,
  screen,
  screens,
  showError,
  showMessage,
  start as launchQuery,
  t,
  tabs,
  type Me,
} from "./ui.js";

interface Row {
  kind: "order" | "broadcast";
  id: string;
  status: string;
  statusText: string;
  text: string;
  costSun: string | null;
  costTrx: string | null;
  explorerUrl: string | null;
}

interface HistoryPage {
  page: number;
  pages: number;
  total: number;
  rows: Row[];
}

type Filter = "a" | "o" | "b" | "r" | "m";

interface Receiver {
  address: string;
  label: string | null;
}

/** The receiver picker's choices, read once per launch: the address book, then receivers the ledger has seen. */
let receiverChoices: Promise<Receiver[]> | undefined;

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

async function receiverPicker(chosen: string, pick: (address: string) => void): Promise<HTMLSelectElement> {
  receiverChoices ??= call("/app/api/history/receivers")
    .then(async (response) => ((await response.json()) as { receivers: Receiver[] }).receivers)
    .catch(() => {
      receiverChoices = undefined;
      return [];
    });
  const select = el("select", { id: "receiver-filter", "aria-label": t("mini-app-filter-receiver") });
  select.append(el("option", { value: "" }, t("mini-app-filter-any-receiver")));
  for (const r of await receiverChoices) {
    select.append(el("option", { value: r.address }, r.label === null ? shortAddress(r.address) : `${r.label} · ${shortAddress(r.address)}`));
  }
  select.value = chosen;
  select.addEventListener("change", () => pick(select.value));
  return select;
}

function monthOptions(current: string, locale: string): HTMLSelectElement {
  const select = el("select", { id: "export-month", "aria-label": t("mini-app-export-month") });
  const [year, month] = current.split("-").map(Number) as [number, number];
  const format = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" });
  for (let back = 0; back < 12; back += 1) {
    const index = year * 12 + (month - 1) - back;
    const label = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
    select.append(el("option", { value: label }, format.format(Date.UTC(Math.floor(index / 12), index % 12, 15))));
  }
  return select;
}

async function exportCsv(month: string, status: HTMLElement, monthName: string): Promise<void> {
  const response = await call(`/app/api/history.csv?month=${encodeURIComponent(month)}`);
  if (response.headers.get("X-Statement-Rows") === "0") {
    status.textContent = t("mini-app-export-empty", { month: monthName });
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", { href: url, download: `statement-${month}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  status.textContent = "";
}

function drawRowDetail(row: Row, back: () => void): void {
  beginScreen(back);
  const backButton = el("button", { type: "button", class: "back", id: "back" }, t("mini-app-back"));
  backButton.addEventListener("click", back);
  const lines: Node[] = [el("p", { class: `badge status-${row.status}` }, row.statusText), el("p", { class: "row-text" }, row.text)];
  if (row.costSun !== null) lines.push(el("p", { class: "hint mono" }, t("mini-app-exact-sun", { sun: row.costSun })));
  if (row.explorerUrl) lines.push(linkTo(row.explorerUrl));
  screen.replaceChildren(backButton, el("article", { class: "detail", id: "detail", "data-id": row.id }, ...lines));
}

async function drawHistory(me: Me, filter: Filter, page: number, receiver = ""): Promise<void> {
  beginScreen();
  let result: HistoryPage;
  try {
    const receiverQuery = receiver === "" ? "" : `&receiver=${encodeURIComponent(receiver)}`;
    result = (await (await call(`/app/api/history?filter=${filter}&page=${page}${receiverQuery}`)).json()) as HistoryPage;
  } catch (error) {
    showError(error, () => void drawHistory(me, filter, page, receiver));
    return;
  }
  const filters = el("nav", { class: "filters", id: "filters" });
  for (const [code, key] of [
    ["a", "mini-app-filter-all"],
    ["o", "mini-app-filter-orders"],
    ["b", "mini-app-filter-broadcasts"],
    ["r", "mini-app-filter-refunds"],
    ["m", "mini-app-filter-month"],
  ] as const) {
    const button = el("button", { type: "button", "data-filter": code, "aria-pressed": String(code === filter) }, t(key));
    button.addEventListener("click", () => void drawHistory(me, code, 0, receiver));
    filters.append(button);
  }
  const picker = await receiverPicker(receiver, (address) => void drawHistory(me, filter, 0, address));
  const list = el("ol", { class: "rows", id: "rows" });
  for (const row of result.rows) {
    const item = el(
      "li",
      { class: "row", "data-id": row.id, "data-kind": row.kind, "data-status": row.status, "data-cost-sun": row.costSun ?? "" },
      el("span", { class: `badge status-${row.status}` }, row.statusText),
      el("p", { class: "row-text" }, row.text),
    );
    if (row.explorerUrl) item.append(linkTo(row.explorerUrl));
    item.addEventListener("click", (event) => {
      if ((event.target as HTMLElement).closest("a")) return;
      drawRowDetail(row, () => void drawHistory(me, filter, result.page, receiver));
    });
    list.append(item);
  }
  const parts: Node[] = [tabs(me, "history"), el("h1", {}, t("mini-app-history")), filters, picker, el("p", { class: "hint", id: "zone" }, me.zoneText ?? "")];
  const unfiltered = filter === "a" && receiver === "";
  if (result.total === 0) parts.push(el("p", { class: "status", id: "empty" }, t(unfiltered ? "mini-app-empty" : "mini-app-empty-filtered")));
  else {
    parts.push(list);
    const pager = el("div", { class: "pager", id: "pager" });
    const newer = el("button", { type: "button", id: "newer" }, t("mini-app-newer"));
    const older = el("button", { type: "button", id: "older" }, t("mini-app-older"));
    newer.disabled = result.page === 0;
    older.disabled = result.page + 1 >= result.pages;
    newer.addEventListener("click", () => void drawHistory(me, filter, result.page - 1, receiver));
    older.addEventListener("click", () => void drawHistory(me, filter, result.page + 1, receiver));
    pager.append(newer, el("span", { id: "page" }, t("mini-app-page", { page: result.page + 1, pages: result.pages, total: result.total })), older);
    parts.push(pager);
  }
  if (me.currentMonth) {
    const select = monthOptions(me.currentMonth, me.locale);
    const status = el("p", { class: "hint", id: "export-status", role: "status" });
    const button = el("button", { type: "button", id: "export" }, t("mini-app-export"));
    button.addEventListener("click", () => {
      const name = select.selectedOptions[0]?.textContent ?? select.value;
      exportCsv(select.value, status, name).catch((error: unknown) => showError(error, () => void drawHistory(me, filter, result.page, receiver)));
    });
    parts.push(el("section", { class: "export" }, select, button, status));
  }
  screen.replaceChildren(...parts);
}

interface OrderOptions {
  receivers: { address: string; label: string | null }[];
  amountMin: number;
  amountMax: number;
  presets: { amount: number; text: string }[];
  tiers: { durationSec: number; durationText: string; totalTrx: string; totalSun: string }[];
}

interface QuoteAnswer {
  quoteId?: string;
  receiver?: string;
  amountText?: string;
  durationText?: string;
  totalTrx?: string;
  balanceAfterTrx?: string | null;
  blocked?: string | null;
  short?: string | null;
  secondTap?: boolean;
  message?: string;
}

/**
 * Order energy: a receiver (the address book's, or pasted), an amount (presets or typed), a duration tier
 * with its total, then the quote and Confirm, both through the chat's own use cases on the server.
 */
async function drawOrder(me: Me, chosen: { receiver: string; amount: number; durationSec?: number } = { receiver: "", amount: 0 }): Promise<void> {
  beginScreen(() => void drawHistory(me, "a", 0));
  let options: OrderOptions;
  try {
    const amountQuery = chosen.amount > 0 ? `?amount=${chosen.amount}` : "";
    options = (await (await call(`/app/api/order/options${amountQuery}`)).json()) as OrderOptions;
  } catch (error) {
    showError(error, () => void drawOrder(me, chosen));
    return;
  }
  const state = { ...chosen, amount: chosen.amount > 0 ? chosen.amount : (options.presets[0]?.amount ?? options.amountMin) };
  const receiver = el("input", { id: "receiver", type: "text", autocomplete: "off", spellcheck: "false", placeholder: t("mini-app-order-receiver-paste") });
  receiver.value = state.receiver;
  receiver.addEventListener("input", () => (state.receiver = receiver.value.trim()));
  const book = el("div", { class: "choices", id: "book" });
  for (const entry of options.receivers.slice(0, 8)) {
    const button = el("button", { type: "button", "data-address": entry.address }, entry.label ?? shortAddress(entry.address));
    button.addEventListener("click", () => {
      state.receiver = entry.address;
      receiver.value = entry.address;
    });
    book.append(button);
  }
  const amount = el("input", { id: "amount", type: "number", inputmode: "numeric", min: String(options.amountMin), max: String(options.amountMax) });
  amount.value = String(state.amount);
  amount.addEventListener("change", () => void drawOrder(me, { ...state, amount: Math.trunc(Number(amount.value)) || state.amount }));
  const presets = el("div", { class: "choices", id: "presets" });
  for (const preset of options.presets) {
    const button = el("button", { type: "button", "data-amount": String(preset.amount), "aria-pressed": String(preset.amount === state.amount) }, preset.text);
    button.addEventListener("click", () => void drawOrder(me, { ...state, amount: preset.amount }));
    presets.append(button);
  }
  const tiers = el("div", { class: "choices", id: "tiers" });
  for (const tier of options.tiers) {
    const button = el(
      "button",
      {
        type: "button",
        "data-duration": String(tier.durationSec),
        "data-total-sun": tier.totalSun,
        "aria-pressed": String(tier.durationSec === state.durationSec),
      },
      t("mini-app-order-tier", { duration: tier.durationText, total: tier.totalTrx }),
    );
    button.addEventListener("click", () => {
      state.durationSec = tier.durationSec;
      for (const other of tiers.querySelectorAll("button")) other.setAttribute("aria-pressed", String(other === button));
    });
    tiers.append(button);
  }
  const quoteBox = el("section", { class: "quote", id: "quote", hidden: "" });
  const getQuote = el("button", { type: "button", id: "get-quote", class: "primary" }, t("mini-app-order-get-quote"));
  getQuote.addEventListener("click", () => void quote(state, quoteBox));
  primary(getQuote, t("mini-app-order-get-quote"), () => getQuote.click());
  screen.replaceChildren(
    tabs(me, "order"),
    el("h1", {}, t("mini-app-tab-order")),
    el("label", { for: "receiver" }, t("mini-app-order-receiver")),
    book,
    receiver,
    el("label", { for: "amount" }, t("mini-app-order-amount")),
    presets,
    amount,
    el("p", { class: "label" }, t("mini-app-order-duration")),
    tiers,
    getQuote,
    quoteBox,
  );
}

async function quote(state: { receiver: string; amount: number; durationSec?: number }, box: HTMLElement): Promise<void> {
  box.hidden = false;
  const durationSec = state.durationSec ?? Number(document.querySelector("#tiers button")?.getAttribute("data-duration"));
  let answer: { status: number; body: unknown };
  try {
    answer = await post("/app/api/order/quote", { receiver: state.receiver, amount: state.amount, durationSec });
  } catch (error) {
    showError(error, () => void quote(state, box));
    return;
  }
  const q = answer.body as QuoteAnswer;
  if (answer.status !== 200 || q.quoteId === undefined) {
    box.replaceChildren(el("p", { class: "status error", id: "quote-error" }, q.message ?? t("mini-app-failed")));
    return;
  }
  const lines: Node[] = [
    el(
      "p",
      { id: "quote-text" },
      t("mini-app-order-quote", { amount: q.amountText ?? "", duration: q.durationText ?? "", receiver: q.receiver ?? "", total: q.totalTrx ?? "" }),
    ),
  ];
  if (q.balanceAfterTrx && !q.short) lines.push(el("p", { class: "hint" }, t("mini-app-order-balance-after", { balance: q.balanceAfterTrx })));
  const refusal = q.blocked ?? q.short;
  if (refusal) lines.push(el("p", { class: "status error", id: "quote-blocked" }, refusal));
  else {
    const confirm = el("button", { type: "button", id: "confirm", class: "primary" }, t("mini-app-order-confirm"));
    const result = el("p", { class: "status", id: "order-result", role: "status" });
    let again = false;
    confirm.addEventListener("click", () => {
      confirm.disabled = true;
      post("/app/api/order/confirm", { quoteId: q.quoteId, confirmedAgain: again })
        .then((answered) => {
          const body = answered.body as { status?: string; message?: string; orderIds?: string[] };
          result.textContent = body.message ?? t("mini-app-failed");
          if (body.status === "placed") {
            host.setMain(undefined);
            result.dataset["orders"] = (body.orderIds ?? []).join(",");
            // The charge is in the balance now: the header shows it.
            void call("/app/api/me")
              .then(async (response) => drawBalance((await response.json()) as Me))
              .catch(() => undefined);
            return;
          }
          if (body.status === "needs_second_tap") {
            again = true;
            confirm.textContent = t("mini-app-order-confirm-again");
            primary(confirm, t("mini-app-order-confirm-again"), () => confirm.click());
          }
          confirm.disabled = body.status !== "needs_second_tap" && body.status !== "failed";
        })
        .catch((error: unknown) => showError(error, () => undefined));
    });
    lines.push(confirm, result);
    // Telegram's main button taps the page's Confirm: one path, so the first tap disables both.
    primary(confirm, t("mini-app-order-confirm"), () => confirm.click());
  }
  box.replaceChildren(...lines);
}

async function start(): Promise<void> {
  document.title = t("mini-app-title");
  if (initData === undefined) {
    showMessage(t("mini-app-no-telegram"));
    return;
  }
  showMessage(t("mini-app-loading"));
  let me: Me;
  try {
    me = (await (await call("/app/api/me")).json()) as Me;
  } catch (error) {
    showError(error, () => void start());
    return;
  }
  addTexts(me.texts);
  document.documentElement.lang = me.locale;
  document.title = t("mini-app-title");
  if (!me.linked) {
    showMessage(t("mini-app-not-linked"));
    return;
  }
  drawBalance(me);
  screens.history = (m) => drawHistory(m, "a", 0);
  screens.order = (m) => drawOrder(m);
  screens.send = (m) => drawSend(m);
  screens.spend = (m) => drawSpend(m, undefined);
  screens.limits = drawLimits;
  screens.addresses = drawAddresses;
  screens.keep = drawKeep;
  // A bot's web_app button names the screen it opens (History on the home card, the statement's month).
  const wanted = launchQuery.get("screen");
  const plan = launchQuery.get("plan");
  if (wanted === "spend") await drawSpend(me, launchQuery.get("month") ?? undefined);
  // ✏️ Edit in app on a plan's card: that plan's Edit form.
  else if (wanted === "keep" && plan !== null && /^[0-9a-f]{12}$/.test(plan)) await drawKeepEdit(me, plan);
  else if (wanted !== null && wanted in screens && wanted !== "history") await screens[wanted as keyof typeof screens](me);
  else await drawHistory(me, "a", 0);
}

host.ready();
void start();
