import { Composer, InlineKeyboard, InputFile } from "grammy";
import { chatTitles } from "../../shared/chats/chat-titles.js";
import { monthAt, monthLabel, monthName, parseStatementMonth, shiftMonth, type StatementMonth } from "../../shared/statements/statement-month.js";
import { buildStatement, type Statement } from "../../shared/statements/statement.js";
import { statementData } from "../../bot/callback-data/statement.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { visibleText } from "../../bot/helpers/visible-text.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../../shared/burn-saving.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import { echo } from "../../bot/helpers/echo.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { statementSummaryText } from "../../bot/helpers/statement-text.js";
import { zoneName } from "../../shared/limits/zone-input.js";
import { miniAppScreenUrl } from "../../bot/helpers/mini-app-url.js";

/** What Telegram lets a photo's caption hold, in characters as the user reads them. */
const CAPTION_LIMIT = 1_024;

const isAfter = (a: StatementMonth, b: StatementMonth) => a.year * 12 + a.month > b.year * 12 + b.month;

/** A month drawn as the card: the chart, the summary as its caption, and its buttons. */
interface StatementCard {
  chart: InputFile;
  caption: string;
  keyboard: InlineKeyboard;
  /** The summary when it is longer than a caption may be: then it follows the card as a message. */
  overflow?: string;
}

/**
 * /statement [month]: the linked account's month (the chat's time zone) as one card: the chart of the
 * daily spend with the summary and saving estimate as its caption (docs/statements.md); 📄 CSV sends
 * the month's lines as a document, ◀ and ▶ redraw the card for the month before or after (never past
 * the current one). A month with nothing in it is said, with the month before to try.
 */
export function createStatementFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  const burnPriceSun = deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN;

  async function statementOf(chatId: number, month: StatementMonth) {
    const timeZone = await deps.flows.limits.timeZoneOf(chatId);
    const statement = await buildStatement(
      { history: deps.flows.history, burnPriceSun, chatTitles: (ids) => chatTitles(deps.chats, ids) },
      chatId,
      month,
      timeZone,
    );
    return { statement, timeZone };
  }

  async function cardOf(ctx: BotContext, month: StatementMonth, statement: Statement, timeZone: string): Promise<StatementCard> {
    const locale = await ctx.i18n.getLocale();
    const name = monthName(month, locale);
    // echarts costs half a second at import: loaded with the first chart, not at start.
    const { spendChartPng } = await import("../../shared/statements/spend-chart.js");
    const chart = spendChartPng({
      title: ctx.t("statement-chart-title", { month: name }),
      dayAxis: ctx.t("statement-chart-axis-day"),
      amountAxis: ctx.t("statement-chart-axis-trx"),
      locale,
      dailySun: statement.dailySun,
    });
    const summary = statementSummaryText(ctx, statement.summary, { month: name, zone: zoneName(timeZone), burnPriceSun, locale });
    const chartCaption = translate(ctx, "statement-chart-caption", { month: name, zone: zoneName(timeZone) });
    const caption = `${summary}\n\n${chartCaption}`;
    const current = monthAt(deps.flows.now(), timeZone);
    const before = shiftMonth(month, -1);
    const after = shiftMonth(month, 1);
    const keyboard = new InlineKeyboard()
      .text(ctx.t("statement-csv-button"), statementData.pack({ action: "c", month: monthLabel(month) }))
      .row()
      .text(`◀ ${monthName(before, locale)}`, statementData.pack({ action: "m", month: monthLabel(before) }));
    if (!isAfter(after, current)) keyboard.text(`${monthName(after, locale)} ▶`, statementData.pack({ action: "m", month: monthLabel(after) }));
    // The same month on the app's Spend screen (tap a day for its lines), where Telegram can open it.
    const app = ctx.chat?.type === "private" ? miniAppScreenUrl(deps.config.publicUrl, "spend", { month: monthLabel(month) }) : undefined;
    if (app !== undefined) keyboard.row().webApp(ctx.t("mini-app-open-statement"), app);
    const chartFile = new InputFile(chart, `spend-${monthLabel(month)}.png`);
    // Telegram's caption holds 1,024 characters: a longer summary (a long month name in a long language) follows the card.
    if (visibleText(caption).length <= CAPTION_LIMIT) return { chart: chartFile, caption, keyboard };
    return { chart: chartFile, caption: chartCaption, keyboard, overflow: summary };
  }

  async function emptyText(ctx: BotContext, month: StatementMonth, timeZone: string): Promise<string> {
    const before = shiftMonth(month, -1);
    return translate(ctx, "statement-empty", {
      month: monthName(month, await ctx.i18n.getLocale()),
      zone: zoneName(timeZone),
      example: code(`/statement ${monthLabel(before)}`),
    });
  }

  feature.command(
    "statement",
    logHandle("command-statement"),
    linkedOnly(async (ctx) => {
      const chatId = ctx.chat.id;
      const timeZone = await deps.flows.limits.timeZoneOf(chatId);
      const current = monthAt(deps.flows.now(), timeZone);
      const typed = ctx.match.trim();
      const month = typed === "" ? current : parseStatementMonth(typed);
      if (month === undefined) {
        await ctx.reply(translate(ctx, "statement-bad-month", { input: echo(typed), example: code(`/statement ${monthLabel(current)}`) }), HTML);
        return;
      }
      const { statement } = await statementOf(chatId, month);
      if (statement.rows.length === 0) {
        await ctx.reply(await emptyText(ctx, month, timeZone), HTML);
        return;
      }
      const card = await cardOf(ctx, month, statement, timeZone);
      await ctx.replyWithPhoto(card.chart, { caption: card.caption, parse_mode: "HTML", reply_markup: card.keyboard });
      if (card.overflow !== undefined) await ctx.reply(card.overflow, HTML);
    }),
  );

  feature.callbackQuery(
    statementData.filter,
    logHandle("callback-statement"),
    linkedOnly(async (ctx) => {
      const data = statementData.unpack(ctx.callbackQuery.data);
      const month = data === undefined ? undefined : parseStatementMonth(data.month);
      if (data === undefined || month === undefined || (data.action !== "c" && data.action !== "m")) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      const chatId = ctx.chat.id;
      const { statement, timeZone } = await statementOf(chatId, month);
      const locale = await ctx.i18n.getLocale();
      if (statement.rows.length === 0) {
        // The card stays as it is: the month asked for has nothing to draw.
        await ctx.answerCallbackQuery({ text: visibleText(await emptyText(ctx, month, timeZone)).slice(0, 200) });
        return;
      }
      if (data.action === "c") {
        await ctx.answerCallbackQuery();
        const name = monthName(month, locale);
        const csvCaption = translate(ctx, "statement-csv-caption", { month: name, lines: statement.rows.length, zone: zoneName(timeZone) });
        await ctx.replyWithDocument(new InputFile(Buffer.from(statement.csv, "utf8"), `statement-${monthLabel(month)}.csv`), {
          caption: csvCaption,
          parse_mode: "HTML",
        });
        return;
      }
      await ctx.answerCallbackQuery();
      const card = await cardOf(ctx, month, statement, timeZone);
      await editIgnoringUnchanged(() =>
        ctx.editMessageMedia({ type: "photo", media: card.chart, caption: card.caption, parse_mode: "HTML" }, { reply_markup: card.keyboard }),
      );
      if (card.overflow !== undefined) await ctx.reply(card.overflow, HTML);
    }),
  );

  return { composer, routes: { commands: ["statement"], callbacks: [statementData] } };
}
