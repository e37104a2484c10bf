import { Composer } from "grammy";
import type { InlineKeyboard } from "grammy";
import { chatTitles } from "../../shared/chats/chat-titles.js";
import { spendWindows } from "../../shared/limits/spend-window.js";
import type { HistoryFilter } from "../../shared/orders/order-history.js";
import { historyListData, historyPageData, historyRowData, type HistoryFilterCode, isHistoryFilterCode } from "../../bot/callback-data/orders.js";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { ledgerRowText } from "./ledger-texts.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createTrackCards } from "./track-card-opener.js";
import { createLedgerKeyboard } from "./orders-keyboards.js";
import { zoneLabel } from "../../shared/limits/zone-input.js";
import { dateTimeFormat } from "../../shared/date-formats.js";
import { zoneOfferRow } from "../../bot/keyboards/zone-offer.js";
import { withHomeRow } from "../../bot/keyboards/menu.js";
import { showScreen } from "../../bot/helpers/screen.js";

export const HISTORY_PAGE_SIZE = 5;

const ID = /^[0-9a-f]{24}$/;
const TITLE_KEY: Record<HistoryFilterCode, string> = { a: "ledger-title-all", o: "ledger-title-orders", b: "ledger-title-broadcasts", m: "ledger-title-month" };

/** One /orders page: its text and, unless the history is empty, its buttons. */
export interface OrdersPage {
  text: string;
  keyboard: InlineKeyboard | undefined;
}

/** Draws a page of /orders for a chat, in its language and zone (the list itself and the zone offer's tap draw it). */
export function createOrdersView(deps: BotDeps): {
  render: (ctx: BotContext, chatId: number, filterCode: HistoryFilterCode, page: number) => Promise<OrdersPage>;
} {
  const { flows } = deps;
  async function render(ctx: BotContext, chatId: number, filterCode: HistoryFilterCode, page: number): Promise<OrdersPage> {
    const locale = await ctx.i18n.getLocale();
    const zone = await flows.limits.zoneOf(chatId);
    const timeZone = zone.zone;
    const nowMs = flows.now();
    const month = spendWindows(nowMs, timeZone).month;
    const filter: HistoryFilter =
      filterCode === "o"
        ? { kind: "order" }
        : filterCode === "b"
          ? { kind: "broadcast" }
          : filterCode === "m"
            ? { fromMs: month.startMs, toMs: month.endMs }
            : {};
    const p = await flows.history.page(chatId, page, HISTORY_PAGE_SIZE, filter);
    if (p.total === 0 && filterCode === "a") return { text: translate(ctx, "orders-empty"), keyboard: withHomeRow(ctx, undefined) };
    const labels = await flows.addressBook.labels(chatId);
    const monthName = dateTimeFormat(locale, { timeZone, month: "long", year: "numeric" }).format(nowMs);
    const title = translate(ctx, TITLE_KEY[filterCode], { page: p.page + 1, pages: p.pages, total: p.total, month: monthName });
    const rows = p.entries.map((entry, i) => ({ n: p.page * HISTORY_PAGE_SIZE + i + 1, entry }));
    const lines = [title, translate(ctx, "ledger-zone", { zone: zoneLabel(timeZone, nowMs) })];
    // The list is the account's: a row another of its chats placed says which.
    const chatNames = await chatTitles(
      deps.chats,
      p.entries.flatMap((e) => (e.chatId === undefined || e.chatId === chatId ? [] : [e.chatId])),
    );
    for (const { n, entry } of rows) lines.push(ledgerRowText(ctx, entry, n, { locale, timeZone, nowMs, labels, chatId, chatNames }));
    lines.push(translate(ctx, p.total === 0 ? "ledger-empty-filtered" : "ledger-open-hint"));
    const keyboard = createLedgerKeyboard(ctx, { filter: filterCode, page: p.page, pages: p.pages, rows });
    // The list shows times: while the chat has picked no zone, the offer sits under it.
    const offer = zoneOfferRow(ctx, locale, chatId, zone, nowMs, { on: "orders", filter: filterCode, page: p.page });
    if (offer.length > 0) keyboard.row(...offer);
    return { text: lines.join("\n\n"), keyboard: withHomeRow(ctx, keyboard) };
  }

  return { render };
}

/**
 * /orders: the linked account's orders and broadcasts as a ledger, newest first: date and time in
 * the chat's zone, receiver (label or short address), amounts, exact cost, status and the
 * delegation's end; filters and pages by buttons, and a button per row for its live card.
 */
export function createOrdersFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  const cards = createTrackCards(deps);
  const { render } = createOrdersView(deps);

  async function redraw(ctx: BotContext, filter: HistoryFilterCode, page: number) {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const { text, keyboard } = await render(ctx, chatId, filter, page);
    await ctx.answerCallbackQuery();
    // A stale button may ask for the page already shown: Telegram refuses that edit, nothing else is ignored.
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, ...(keyboard ? { reply_markup: keyboard } : {}) }));
  }

  // The history is the linked account's: an unlinked chat has none to show.
  const showOrders = linkedOnly<BotContext>(async (ctx) => {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery();
    const { text, keyboard } = await render(ctx, ctx.account.chatId, "a", 0);
    await showScreen(ctx, text, keyboard);
  });
  feature.command("orders", logHandle("command-orders"), showOrders);
  feature.callbackQuery(menuAction("orders"), logHandle("callback-menu-orders"), showOrders);

  feature.callbackQuery(historyListData.filter, logHandle("callback-orders-list"), async (ctx) => {
    const data = historyListData.unpack(ctx.callbackQuery.data);
    if (!data || !isHistoryFilterCode(data.filter)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    // The page is clamped by the history: a forged one shows the nearest page.
    await redraw(ctx, data.filter, Number(data.page));
  });

  feature.callbackQuery(historyPageData.filter, logHandle("callback-orders-page"), async (ctx) => {
    await redraw(ctx, "a", Number(historyPageData.unpack(ctx.callbackQuery.data)?.page ?? 0));
  });

  feature.callbackQuery(historyRowData.filter, logHandle("callback-orders-row"), async (ctx) => {
    const data = historyRowData.unpack(ctx.callbackQuery.data);
    const kind = data?.kind === "o" ? "order" : data?.kind === "b" ? "broadcast" : undefined;
    const apiKey = (await ctx.linked())?.apiKey;
    if (!data || kind === undefined || !ID.test(data.id) || apiKey === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await ctx.answerCallbackQuery();
    await cards.send(ctx, apiKey, ctx.chat.id, data.id, kind);
  });

  return { composer, routes: { commands: ["orders"], callbacks: [menuData, historyListData, historyPageData, historyRowData] } };
}
