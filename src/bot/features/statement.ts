import { InputFile } from "grammy";
import { chatTitles } from "../../core/chats/chat-titles.js";
import { Composer } from "../composer.js";
import { monthAt, monthLabel, parseStatementMonth, type StatementMonth } from "../../core/statements/statement-month.js";
import { buildStatement } from "../../core/statements/statement.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../../core/burn-saving.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { linkedOnly } from "../filters/linked.js";
import { echo } from "../helpers/echo.js";
import { code, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { statementSummaryText } from "../helpers/statement-text.js";
import { zoneName } from "../../core/limits/zone-input.js";
import { dateTimeFormat } from "../../core/date-formats.js";

/** "November 2026" / "ноябрь 2026 г." / "2026年11月", from the calendar month alone. */
function monthName(m: StatementMonth, locale: string): string {
  return dateTimeFormat(locale, { year: "numeric", month: "long", timeZone: "UTC" }).format(Date.UTC(m.year, m.month - 1, 15));
}

/**
 * /statement [month]: the linked account's month (the chat's time zone) as a
 * CSV document, a chart of the daily spend and a summary with the saving
 * estimate (docs/statements.md).
 */
export function createStatementFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  const burnPriceSun = deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN;

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
      const locale = await ctx.i18n.getLocale();
      const name = monthName(month, locale);
      const statement = await buildStatement(
        { history: deps.flows.history, burnPriceSun, chatTitles: (ids) => chatTitles(deps.chats, ids) },
        chatId,
        month,
        timeZone,
      );
      if (statement.rows.length === 0) {
        const before = month.month === 1 ? { year: month.year - 1, month: 12 } : { year: month.year, month: month.month - 1 };
        await ctx.reply(translate(ctx, "statement-empty", { month: name, zone: zoneName(timeZone), example: code(`/statement ${monthLabel(before)}`) }), HTML);
        return;
      }
      const label = monthLabel(month);
      const csvCaption = translate(ctx, "statement-csv-caption", { month: name, lines: statement.rows.length, zone: zoneName(timeZone) });
      await ctx.replyWithDocument(new InputFile(Buffer.from(statement.csv, "utf8"), `statement-${label}.csv`), { caption: csvCaption, parse_mode: "HTML" });
      // echarts costs half a second at import: loaded with the first chart, not at start.
      const { spendChartPng } = await import("../../core/statements/spend-chart.js");
      const chart = spendChartPng({
        title: ctx.t("statement-chart-title", { month: name }),
        dayAxis: ctx.t("statement-chart-axis-day"),
        amountAxis: ctx.t("statement-chart-axis-trx"),
        locale,
        dailySun: statement.dailySun,
      });
      await ctx.replyWithPhoto(new InputFile(chart, `spend-${label}.png`), {
        caption: translate(ctx, "statement-chart-caption", { month: name, zone: zoneName(timeZone) }),
        parse_mode: "HTML",
      });
      await ctx.reply(statementSummaryText(ctx, statement.summary, { month: name, zone: zoneName(timeZone), burnPriceSun, locale }), HTML);
    }),
  );

  return composer;
}
