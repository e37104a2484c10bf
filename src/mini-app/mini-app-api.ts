/**
 * The Mini App's JSON API under /app/api. Every request names its user by Telegram's signed launch data in
 * `X-Telegram-Init-Data` (no cookies, no session): the private chat whose id is that user's id, and the
 * account linked there. Anything else is refused with 401 before a store or the service is read.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { SupportedLocale } from "../config.js";
import { chatTitles } from "../shared/chats/chat-titles.js";
import type { ChatRepository } from "../shared/chats/chat-repository.js";
import type { Flows } from "../shared/flows.js";
import { zoneLabel } from "../shared/limits/zone-input.js";
import { isValidTronAddress } from "../shared/tron/address.js";
import { spendWindows } from "../shared/limits/spend-window.js";
import type { HistoryEntry, HistoryFilter } from "../shared/orders/order-history.js";
import type { ServiceClient } from "../platform/service/client.js";
import { monthAt, monthLabel, monthWindow, parseStatementMonth, type StatementMonth } from "../shared/statements/statement-month.js";
import { buildStatement } from "../shared/statements/statement.js";
import { formatTrx } from "../bot/helpers/format.js";
import { translate } from "../bot/helpers/html.js";
import { ledgerRowText } from "../features/history/index.js";
import type { Links } from "../bot/helpers/links.js";
import { statusText, type Translator } from "../bot/helpers/record-text.js";
import { visibleText } from "../bot/helpers/visible-text.js";
import { matchLocale, type Translations } from "../bot/i18n.js";
import { checkInitData, unverifiedLanguage, type InitDataUser } from "./init-data.js";
import { appTexts } from "./mini-app-texts.js";
import { notLinked } from "./api-request.js";
import type { LinkedChat } from "../shared/chats/chat-repository.js";

/** The header every API call carries: Telegram's launch data exactly as the page found it. */
export const INIT_DATA_HEADER = "X-Telegram-Init-Data";
/** Rows per page of the app's history: a screen holds more than a chat message does. */
export const APP_HISTORY_PAGE_SIZE = 10;

export const API_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

const FILTERS = ["a", "o", "b", "r", "m"] as const;
type AppFilter = (typeof FILTERS)[number];

export interface MiniAppApiDeps {
  botToken: string;
  defaultLocale: SupportedLocale;
  i18n: Translations;
  chats: Pick<ChatRepository, "get" | "openRecord">;
  service: Pick<ServiceClient, "getBalance">;
  flows: {
    history: Pick<Flows["history"], "page" | "spend">;
    limits: Pick<Flows["limits"], "zoneOf">;
    addressBook: Pick<Flows["addressBook"], "labels" | "list">;
    now: () => number;
  };
  links: Pick<Links, "transaction" | "address">;
  logger: Logger;
  /** How old launch data may be, in seconds (`INIT_DATA_MAX_AGE_S` by default). */
  maxAgeS?: number;
  /** Sun per energy when TRX is burnt for it: the CSV's saving lines, as the Spend screen and /statement. */
  burnPriceSun: number;
  /** Whether the Send USDT screen is served (the signing page exists): the page shows its tab only then. */
  sendable?: boolean;
}

/** Who is asking, once their launch data checked. */
export interface Caller {
  user: InitDataUser;
  chatId: number;
  locale: SupportedLocale;
  /** The chat's linked account, read and opened once per call; undefined when the chat has none. */
  linked: LinkedChat | undefined;
}

export type ApiEnv = { Variables: { caller: Caller } };
type Env = ApiEnv;

/** One ledger row as the app shows it: the chat's own row text, and what the app adds (exact sun, link). */
export interface AppHistoryRow {
  kind: HistoryEntry["kind"];
  id: string;
  status: string;
  statusText: string;
  createdAtMs: number;
  /** The row exactly as /orders writes it (as plain text). */
  text: string;
  address: string | null;
  /** Exact sun as a decimal string; null while the cost is unknown. */
  costSun: string | null;
  costTrx: string | null;
  explorerUrl: string | null;
}

/** Receivers offered by the History screen's picker: the book's first, then those the ledger has seen. */
const RECEIVER_CHOICES = 30;

function filterOf(code: AppFilter, month: StatementMonth | undefined, receiver: string | undefined, nowMs: number, timeZone: string): HistoryFilter {
  const kind: HistoryFilter = code === "o" ? { kind: "order" } : code === "b" ? { kind: "broadcast" } : code === "r" ? { refunded: true } : {};
  const narrowed: HistoryFilter = receiver === undefined ? kind : { ...kind, receiver };
  const window = month !== undefined ? monthWindow(month, timeZone) : code === "m" ? spendWindows(nowMs, timeZone).month : undefined;
  return window === undefined ? narrowed : { ...narrowed, fromMs: window.startMs, toMs: window.endMs };
}

/** More routes under /app/api, behind the same check of the launch data (the Order screen's). */
export type ApiRoutes = (api: Hono<ApiEnv>) => void;

export function miniAppApiRoutes(deps: MiniAppApiDeps, more: readonly ApiRoutes[] = []): (app: Hono) => void {
  const log = deps.logger.child({ component: "mini-app-api" });
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });

  const authenticated: MiddlewareHandler<Env> = async (c, next) => {
    const raw = c.req.header(INIT_DATA_HEADER);
    const checked = checkInitData(raw, deps.botToken, { nowMs: deps.flows.now(), ...(deps.maxAgeS === undefined ? {} : { maxAgeS: deps.maxAgeS }) });
    if (!checked.ok) {
      log.info({ reason: checked.reason }, "mini app call refused");
      // The refusal is worded in the language the (unchecked) data names: it picks words, never data.
      const locale = matchLocale(unverifiedLanguage(raw)) ?? deps.defaultLocale;
      const key = checked.reason === "expired" ? "mini-app-expired" : "mini-app-refused";
      return c.json({ error: checked.reason, message: deps.i18n.t(locale, key) }, 401, API_HEADERS);
    }
    // A private chat's id is its user's id: the launch data names whose chat, and so whose account, is read.
    const record = await deps.chats.get(checked.user.id);
    // The chat's stored choice, then the Telegram app's language, then the default: as the bot negotiates.
    const locale = record?.locale ?? matchLocale(checked.user.languageCode) ?? deps.defaultLocale;
    const linked = record === undefined ? undefined : await deps.chats.openRecord(record);
    c.set("caller", { user: checked.user, chatId: checked.user.id, locale, linked });
    await next();
    return undefined;
  };

  function row(entry: HistoryEntry, n: number, locale: string, rc: Omit<Parameters<typeof ledgerRowText>[3], "locale">): AppHistoryRow {
    const t = tr(locale);
    const url =
      entry.kind === "broadcast" && entry.txId !== undefined
        ? deps.links.transaction(entry.txId)
        : entry.address !== undefined
          ? deps.links.address(entry.address)
          : undefined;
    return {
      kind: entry.kind,
      id: entry.id,
      status: entry.status,
      statusText: visibleText(statusText(t, entry.status).value),
      createdAtMs: entry.createdAtMs,
      text: visibleText(ledgerRowText(t, entry, n, { ...rc, locale })),
      address: entry.address ?? null,
      costSun: entry.totalCostSun === undefined ? null : String(entry.totalCostSun),
      costTrx: entry.totalCostSun === undefined ? null : formatTrx(BigInt(entry.totalCostSun), locale),
      explorerUrl: url ?? null,
    };
  }

  async function me(c: Context<Env>) {
    const { chatId, locale, user, linked } = c.get("caller");
    const base = { locale, texts: appTexts(deps.i18n, locale), user: { id: user.id, firstName: user.firstName ?? null } };
    if (linked === undefined) return c.json({ ...base, linked: false }, 200, API_HEADERS);
    const zone = await deps.flows.limits.zoneOf(chatId);
    const nowMs = deps.flows.now();
    let balance: { availableSun: string; availableTrx: string; depositAddress: string | null } | null = null;
    try {
      const b = await deps.service.getBalance(linked.apiKey);
      balance = { availableSun: String(b.availableSun), availableTrx: formatTrx(BigInt(b.availableSun), locale), depositAddress: b.depositAddress };
    } catch (error) {
      // A balance the service cannot give now costs the screen its balance line, not the screen.
      log.warn({ err: error, chatId }, "mini app: balance not read");
    }
    return c.json(
      {
        ...base,
        linked: true,
        balance,
        timeZone: zone.zone,
        zoneText: visibleText(translate(tr(locale), "ledger-zone", { zone: zoneLabel(zone.zone, nowMs) })),
        currentMonth: monthLabel(monthAt(nowMs, zone.zone)),
        send: deps.sendable === true,
      },
      200,
      API_HEADERS,
    );
  }

  async function history(c: Context<Env>) {
    const { chatId, locale } = c.get("caller");
    // An unlinked chat has no history: the ledger is the linked account's.
    if (c.get("caller").linked === undefined) return notLinked(c, deps.i18n);
    const code = (FILTERS as readonly string[]).includes(c.req.query("filter") ?? "a") ? ((c.req.query("filter") ?? "a") as AppFilter) : undefined;
    const monthText = c.req.query("month");
    const month = monthText === undefined || monthText === "" ? undefined : parseStatementMonth(monthText);
    const pageText = c.req.query("page") ?? "0";
    // A receiver is matched exactly, so only a real address can match anything: anything else is a bad request.
    const receiverText = c.req.query("receiver") ?? "";
    const receiver = receiverText === "" ? undefined : receiverText;
    const badReceiver = receiver !== undefined && !isValidTronAddress(receiver);
    if (code === undefined || (monthText !== undefined && monthText !== "" && month === undefined) || !/^\d{1,6}$/.test(pageText) || badReceiver) {
      return c.json({ error: "bad_request" }, 400, API_HEADERS);
    }
    const zone = await deps.flows.limits.zoneOf(chatId);
    const nowMs = deps.flows.now();
    // The same use case, pages and filters as /orders: the page number is clamped by the history.
    const p = await deps.flows.history.page(chatId, Number(pageText), APP_HISTORY_PAGE_SIZE, filterOf(code, month, receiver, nowMs, zone.zone));
    const labels = await deps.flows.addressBook.labels(chatId);
    const chatNames = await chatTitles(
      deps.chats,
      p.entries.flatMap((e) => (e.chatId === undefined || e.chatId === chatId ? [] : [e.chatId])),
    );
    const rc = { timeZone: zone.zone, nowMs, labels, chatId, chatNames };
    const rows = p.entries.map((entry, i) => row(entry, p.page * APP_HISTORY_PAGE_SIZE + i + 1, locale, rc));
    return c.json({ page: p.page, pages: p.pages, total: p.total, rows }, 200, API_HEADERS);
  }

  /** The History screen's receiver picker: the address book (labels, recent receivers), then receivers the ledger has seen. */
  async function receivers(c: Context<Env>) {
    const { chatId, linked } = c.get("caller");
    if (linked === undefined) return notLinked(c, deps.i18n);
    const book = await deps.flows.addressBook.list(chatId);
    const seen = new Map<string, string | null>(book.map((e) => [e.address, e.label ?? null]));
    const recent = await deps.flows.history.spend(chatId);
    for (const entry of recent?.entries ?? []) if (entry.address !== undefined && !seen.has(entry.address)) seen.set(entry.address, null);
    const list = [...seen].slice(0, RECEIVER_CHOICES).map(([address, label]) => ({ address, label }));
    return c.json({ receivers: list }, 200, API_HEADERS);
  }

  async function csv(c: Context<Env>) {
    const { chatId, linked } = c.get("caller");
    if (linked === undefined) return notLinked(c, deps.i18n);
    const zone = await deps.flows.limits.zoneOf(chatId);
    const monthText = c.req.query("month");
    const month = monthText === undefined || monthText === "" ? monthAt(deps.flows.now(), zone.zone) : parseStatementMonth(monthText);
    if (month === undefined) return c.json({ error: "bad_request" }, 400, API_HEADERS);
    // /statement's own CSV: one line per order, broadcast and refund, exact to the sun.
    const statement = await buildStatement(
      { history: deps.flows.history, burnPriceSun: deps.burnPriceSun, chatTitles: (ids) => chatTitles(deps.chats, ids) },
      chatId,
      month,
      zone.zone,
    );
    return c.body(statement.csv, 200, {
      ...API_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statement-${monthLabel(month)}.csv"`,
      "X-Statement-Rows": String(statement.rows.length),
    });
  }

  return (app) => {
    const api = app.basePath("/app/api") as unknown as Hono<Env>;
    api.use("*", authenticated);
    api.get("/me", me);
    api.get("/history", history);
    api.get("/history.csv", csv);
    api.get("/history/receivers", receivers);
    for (const mount of more) mount(api);
    // Under /app/api nothing else exists; a wrong method or path is not a page.
    api.all("*", (c) => c.json({ error: "not found" }, 404, API_HEADERS));
  };
}
