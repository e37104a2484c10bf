/**
 * The Spend screen's API: a month of the account as /statement builds it (`buildStatement`: the same rows,
 * daily net spend, refunds and saving against burning), with the chart's own words and layout, so the page
 * draws the bars /statement's PNG draws. Each line carries its exact sun for the day a user taps.
 */
import type { Context, Hono } from "hono";
import { chatTitles } from "../shared/chats/chat-titles.js";
import type { ChatRepository } from "../shared/chats/chat-repository.js";
import type { Flows } from "../shared/flows.js";
import { zoneName } from "../shared/limits/zone-input.js";
import { dateTimeFormat } from "../shared/date-formats.js";
import { SPEND_CHART_LAYOUT } from "../shared/statements/spend-chart-layout.js";
import { dayOfMonth, monthAt, monthLabel, monthName, parseStatementMonth, shiftMonth } from "../shared/statements/statement-month.js";
import { trxFixed } from "../shared/statements/statement-rows.js";
import { buildStatement } from "../shared/statements/statement.js";
import { formatTrx } from "../bot/helpers/format.js";
import { translate } from "../bot/helpers/html.js";
import type { Links } from "../bot/helpers/links.js";
import { statusText, type Translator } from "../bot/helpers/record-text.js";
import { statementSummaryText } from "../bot/helpers/statement-text.js";
import { visibleText } from "../bot/helpers/visible-text.js";
import type { Translations } from "../bot/i18n.js";
import { API_HEADERS, type ApiEnv, type ApiRoutes } from "./mini-app-api.js";
import { notLinked } from "./api-request.js";

export interface MiniAppSpendDeps {
  i18n: Translations;
  chats: Pick<ChatRepository, "get">;
  flows: {
    history: Pick<Flows["history"], "page">;
    limits: Pick<Flows["limits"], "timeZoneOf">;
    addressBook: Pick<Flows["addressBook"], "labels">;
    now: () => number;
  };
  links: Pick<Links, "transaction" | "address">;
  /** ENERGY_BURN_PRICE_SUN: the saving is /statement's. */
  burnPriceSun: number;
}

const isAfter = (a: { year: number; month: number }, b: { year: number; month: number }) => a.year * 12 + a.month > b.year * 12 + b.month;

export function miniAppSpendRoutes(deps: MiniAppSpendDeps): ApiRoutes {
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });

  async function spend(c: Context<ApiEnv>) {
    const { chatId, locale } = c.get("caller");
    if (c.get("caller").linked === undefined) return notLinked(c, deps.i18n);
    const timeZone = await deps.flows.limits.timeZoneOf(chatId);
    const current = monthAt(deps.flows.now(), timeZone);
    const monthText = c.req.query("month");
    const month = monthText === undefined || monthText === "" ? current : parseStatementMonth(monthText);
    if (month === undefined || isAfter(month, current)) return c.json({ error: "bad_request" }, 400, API_HEADERS);
    const statement = await buildStatement(
      { history: deps.flows.history, burnPriceSun: deps.burnPriceSun, chatTitles: (ids) => chatTitles(deps.chats, ids) },
      chatId,
      month,
      timeZone,
    );
    const t = tr(locale);
    const name = monthName(month, locale);
    const labels = await deps.flows.addressBook.labels(chatId);
    const clock = dateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone });
    const next = shiftMonth(month, 1);
    return c.json(
      {
        month: monthLabel(month),
        monthName: name,
        prev: monthLabel(shiftMonth(month, -1)),
        next: isAfter(next, current) ? null : monthLabel(next),
        // The PNG's own words (statement.ftl) and layout: the page draws the same chart.
        title: t.t("statement-chart-title", { month: name }),
        dayAxis: t.t("statement-chart-axis-day"),
        amountAxis: t.t("statement-chart-axis-trx"),
        caption: visibleText(translate(t, "statement-chart-caption", { month: name, zone: zoneName(timeZone) })),
        layout: SPEND_CHART_LAYOUT,
        // Bar heights as exact six-decimal TRX (the page only scales them); the day's total as the locale writes it.
        days: statement.dailySun.map((sun, i) => ({ day: i + 1, sun: sun.toString(), trx: trxFixed(sun), text: formatTrx(sun, locale) })),
        lines: statement.rows.map((row) => ({
          day: dayOfMonth(row.atMs, timeZone),
          time: clock.format(row.atMs),
          id: row.id,
          kind: row.kind,
          kindText: t.t(`mini-app-spend-kind-${row.kind}`),
          receiver: row.receiver === undefined ? null : (labels.get(row.receiver) ?? row.receiver),
          costSun: row.costSun.toString(),
          costTrx: formatTrx(row.costSun, locale),
          status: row.status,
          statusText: visibleText(statusText(t, row.status).value),
          explorerUrl: row.txId !== undefined ? deps.links.transaction(row.txId) : row.receiver !== undefined ? deps.links.address(row.receiver) : null,
        })),
        summary:
          statement.rows.length === 0
            ? null
            : visibleText(statementSummaryText(t, statement.summary, { month: name, zone: zoneName(timeZone), burnPriceSun: deps.burnPriceSun, locale })),
        netSun: statement.summary.netSun.toString(),
        savingSun: statement.summary.savingSun.toString(),
        empty: statement.rows.length === 0 ? t.t("mini-app-spend-empty", { month: name }) : null,
      },
      200,
      API_HEADERS,
    );
  }

  return (api: Hono<ApiEnv>) => {
    api.get("/spend", spend);
  };
}
