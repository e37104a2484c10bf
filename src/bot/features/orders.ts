import { Composer } from "grammy";
import { delegationEndsAtMs, type HistoryEntry } from "../../core/orders/order-history.js";
import { historyPageData } from "../callback-data/orders.js";
import { menuAction } from "../callback-data/menu.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { linkedOnly } from "../filters/linked.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { formatInteger, formatTrx } from "../helpers/format.js";
import { code, html, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { durationText, statusText, usdtExact, type Translator } from "../helpers/record-text.js";
import { createHistoryKeyboard } from "../keyboards/orders.js";
import { delegationEndShort } from "../helpers/expiry-text.js";

export const HISTORY_PAGE_SIZE = 5;

function entryText(tr: Translator, e: HistoryEntry, n: number, locale: string, nowMs: number): string {
  const common = { n, id: code(e.id), status: statusText(tr, e.status), address: code(e.address ?? "-") };
  if (e.kind === "order") {
    const line = translate(tr, "orders-line-order", {
      ...common,
      amount: formatInteger(e.amount ?? 0, locale),
      duration: durationText(tr, e.durationSec ?? 0),
    });
    const endsAtMs = delegationEndsAtMs(e);
    return endsAtMs === undefined ? line : `${line}\n${delegationEndShort(tr, endsAtMs, nowMs, locale)}`;
  }
  const what =
    e.txKind === "usdt" && e.amountAtomic !== undefined
      ? translate(tr, "orders-what-usdt", { amount: usdtExact(e.amountAtomic, locale) })
      : e.txKind === "trx" && e.amountSun !== undefined
        ? translate(tr, "orders-what-trx", { amount: formatTrx(BigInt(e.amountSun), locale) })
        : e.txKind === "contract"
          ? translate(tr, "orders-what-contract")
          : translate(tr, "orders-what-tron");
  return translate(tr, "orders-line-broadcast", { ...common, what: html(what) });
}

/** /orders: the orders and broadcasts of the account linked to this chat, newest first, paginated with buttons. */
export function createOrdersFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function render(ctx: BotContext, chatId: number, page: number) {
    const locale = await ctx.i18n.getLocale();
    const p = await deps.flows.history.page(chatId, page, HISTORY_PAGE_SIZE);
    if (p.total === 0) return { text: translate(ctx, "orders-empty"), keyboard: undefined };
    const lines = [translate(ctx, "orders-title", { page: p.page + 1, pages: p.pages, total: p.total })];
    const nowMs = deps.flows.now();
    p.entries.forEach((e, i) => lines.push(entryText(ctx, e, p.page * HISTORY_PAGE_SIZE + i + 1, locale, nowMs)));
    lines.push(translate(ctx, "orders-track-hint"));
    return { text: lines.join("\n\n"), keyboard: createHistoryKeyboard(ctx, p.page, p.pages) };
  }

  // The history is the linked account's: an unlinked chat has none to show.
  const showOrders = linkedOnly<BotContext>(async (ctx) => {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery();
    const { text, keyboard } = await render(ctx, ctx.account.chatId, 0);
    await ctx.reply(text, { ...HTML, ...(keyboard ? { reply_markup: keyboard } : {}) });
  });
  feature.command("orders", logHandle("command-orders"), showOrders);
  feature.callbackQuery(menuAction("orders"), logHandle("callback-menu-orders"), showOrders);

  feature.callbackQuery(historyPageData.filter, logHandle("callback-orders-page"), async (ctx) => {
    const page = Number(historyPageData.unpack(ctx.callbackQuery.data)?.page ?? 0);
    const { text, keyboard } = await render(ctx, ctx.chat.id, page);
    await ctx.answerCallbackQuery();
    // A stale button may ask for the page already shown: Telegram refuses that edit, nothing else is ignored.
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, ...(keyboard ? { reply_markup: keyboard } : {}) }));
  });

  return composer;
}
