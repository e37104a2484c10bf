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
const DEFAULT_WORDS = new Set(["default", "reset"]);

/**
 * /alerts: what the balance watch tells this chat on its own (deposits, a
 * balance below the threshold, charges the bot did not make), each on or
 * off, and the low-balance threshold: `/alerts threshold 25.5` (exact TRX)
 * or `/alerts threshold default`. Stored per chat; no key needed.
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
    return translate(ctx, "alerts-title", { threshold, command: code("/alerts threshold 25.5"), reset: code("/alerts threshold default") });
  }

  async function show(ctx: BotContext, settings: AlertSettings): Promise<void> {
    await ctx.reply(await title(ctx, settings), { ...HTML, reply_markup: createAlertsKeyboard(ctx, settings) });
  }

  feature.command("alerts", logHandle("command-alerts"), async (ctx) => {
    const chatId = ctx.chat.id;
    const [word, value, ...rest] = ctx.match
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    if (word === undefined) return show(ctx, await deps.alerts.get(chatId));
    if (word.toLowerCase() !== "threshold" || value === undefined || rest.length > 0) {
      await ctx.reply(translate(ctx, "alerts-usage", { command: code("/alerts threshold 25.5"), reset: code("/alerts threshold default") }), HTML);
      return;
    }
    if (DEFAULT_WORDS.has(value.toLowerCase())) {
      const settings = await deps.alerts.setThreshold(chatId, undefined);
      ctx.logger.info("low-balance threshold back to the default");
      await ctx.reply(translate(ctx, "alerts-threshold-reset"), HTML);
      return show(ctx, settings);
    }
    const parsed = parseThreshold(value);
    if (!parsed.ok) {
      const locale = await ctx.i18n.getLocale();
      await ctx.reply(translate(ctx, `alerts-threshold-invalid-${parsed.reason}`, { value: code(value), maxTrx: formatTrx(MAX_THRESHOLD_SUN, locale) }), HTML);
      return;
    }
    const settings = await deps.alerts.setThreshold(chatId, parsed.sun);
    ctx.logger.info({ thresholdSun: parsed.sun.toString() }, "low-balance threshold set");
    const locale = await ctx.i18n.getLocale();
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
