import { Composer } from "../composer.js";
import {
  ALERT_SWITCHES,
  DEFAULT_LOW_BALANCE_SUN,
  MAX_THRESHOLD_SUN,
  parseThreshold,
  type AlertSettings,
  type AlertSwitch,
} from "../../core/topup/alert-settings.js";
import { alertsData } from "../callback-data/alerts.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { formatTrx } from "../helpers/format.js";
import { code, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { ALERT_TEXT_ID, createAlertsKeyboard } from "../keyboards/alerts.js";

const isSwitch = (value: string | undefined): value is AlertSwitch => ALERT_SWITCHES.some((k) => k === value);
/** The words of `/alerts threshold …` in every language, so a chat may type any of them whatever its language. */
const THRESHOLD_WORDS = new Set(["threshold", "порог", "阈值"]);
const DEFAULT_WORDS = new Set(["default", "reset", "сброс", "默认"]);

/**
 * The syntaxes shown to the chat, in its own words and number style: `/alerts threshold 25.5`,
 * `/alerts порог 25,5`, `/alerts 阈值 25.5`.
 */
function syntaxes(ctx: BotContext): { command: ReturnType<typeof code>; reset: ReturnType<typeof code> } {
  const word = ctx.t("alerts-word-threshold");
  return { command: code(`/alerts ${word} ${ctx.t("alerts-example-amount")}`), reset: code(`/alerts ${word} ${ctx.t("alerts-word-default")}`) };
}

/**
 * /alerts: what the balance watch tells this chat on its own (deposits, a
 * balance below the threshold, charges the bot did not make), each on or
 * off, and the low-balance threshold: `/alerts threshold 25.5` (exact TRX,
 * typed as the chat's language writes numbers) or `/alerts threshold default`.
 * Stored per chat; no key needed.
 */
export function createAlertsFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function title(ctx: BotContext, settings: AlertSettings): Promise<string> {
    const locale = await ctx.i18n.getLocale();
    const threshold =
      settings.thresholdSun === undefined
        ? translate(ctx, "alerts-threshold-default", { minTrx: formatTrx(DEFAULT_LOW_BALANCE_SUN, locale) })
        : translate(ctx, "alerts-threshold-own", { thresholdTrx: formatTrx(BigInt(settings.thresholdSun), locale) });
    return translate(ctx, "alerts-title", { threshold, ...syntaxes(ctx) });
  }

  async function show(ctx: BotContext, settings: AlertSettings): Promise<void> {
    await ctx.reply(await title(ctx, settings), { ...HTML, reply_markup: createAlertsKeyboard(ctx, settings) });
  }

  feature.command("alerts", logHandle("command-alerts"), async (ctx) => {
    const chatId = ctx.chat.id;
    const [word, ...words] = ctx.match
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    if (word === undefined) return show(ctx, await deps.alerts.get(chatId));
    // The amount may hold spaces between its groups ("1 000" in Russian).
    const value = words.join(" ");
    if (!THRESHOLD_WORDS.has(word.toLowerCase()) || value === "") {
      await ctx.reply(translate(ctx, "alerts-usage", syntaxes(ctx)), HTML);
      return;
    }
    if (DEFAULT_WORDS.has(value.toLowerCase())) {
      const settings = await deps.alerts.setThreshold(chatId, undefined);
      ctx.logger.info("low-balance threshold back to the default");
      await ctx.reply(translate(ctx, "alerts-threshold-reset"), HTML);
      return show(ctx, settings);
    }
    const locale = await ctx.i18n.getLocale();
    const parsed = parseThreshold(value, locale);
    if (!parsed.ok && parsed.reason === "ambiguous") {
      const [first, second] = parsed.readings.map((sun) => formatTrx(sun, locale));
      await ctx.reply(translate(ctx, "input-trx-ambiguous", { value, first: first!, second: second! }), HTML);
      return;
    }
    if (!parsed.ok) {
      await ctx.reply(translate(ctx, `alerts-threshold-invalid-${parsed.reason}`, { value: code(value), maxTrx: formatTrx(MAX_THRESHOLD_SUN, locale) }), HTML);
      return;
    }
    const settings = await deps.alerts.setThreshold(chatId, parsed.sun);
    ctx.logger.info({ thresholdSun: parsed.sun.toString() }, "low-balance threshold set");
    await ctx.reply(translate(ctx, "alerts-threshold-set", { thresholdTrx: formatTrx(parsed.sun, locale) }), HTML);
    return show(ctx, settings);
  });

  feature.callbackQuery(alertsData.filter, logHandle("callback-alerts"), async (ctx) => {
    const data = alertsData.unpack(ctx.callbackQuery.data);
    if (!data || !isSwitch(data.kind) || (data.value !== "on" && data.value !== "off")) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const on = data.value === "on";
    const before = await deps.alerts.get(ctx.chat.id);
    await ctx.answerCallbackQuery({ text: ctx.t(`alerts-${ALERT_TEXT_ID[data.kind]}-${on ? "enabled" : "disabled"}`) });
    // A second tap on the same (stale) button changes nothing: no write, no edit.
    if (before[data.kind] === on) return;
    const settings = await deps.alerts.setSwitch(ctx.chat.id, data.kind, on);
    ctx.logger.info({ kind: data.kind, on }, "alert setting changed");
    const text = await title(ctx, settings);
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: createAlertsKeyboard(ctx, settings) }));
  });

  return composer;
}
