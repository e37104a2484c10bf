import { Composer } from "grammy";
import { createConversation, type Conversation } from "@grammyjs/conversations";
import {
  ALERT_SWITCHES,
  DEFAULT_LOW_BALANCE_SUN,
  MAX_THRESHOLD_SUN,
  parseThreshold,
  type AlertSettings,
  type AlertSwitch,
} from "../../shared/chats/alert-settings.js";
import { alertsData } from "../../bot/callback-data/alerts.js";
import type { BotContext, ConversationContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { echo } from "../../bot/helpers/echo.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { ALERT_TEXT_ID, createAlertsKeyboard, THRESHOLD_CUSTOM, THRESHOLD_DEFAULT } from "./alerts-keyboards.js";

const ALERTS_THRESHOLD_CONVERSATION = "alerts-threshold";

const isSwitch = (value: string | undefined): value is AlertSwitch => ALERT_SWITCHES.some((k) => k === value);
/** The words of `/alerts threshold …` in every language, so a chat may type any of them whatever its language. */
const THRESHOLD_WORDS = new Set(["threshold", "порог", "阈值"]);
const DEFAULT_WORDS = new Set(["default", "reset", "сброс", "默认"]);

/**
 * The syntaxes shown to the chat, in its own words and number style: `/alerts threshold 25.5`,
 * `/alerts порог 25,5`, `/alerts 阈值 25.5`.
 */
function syntaxes(ctx: Translator): { command: ReturnType<typeof code>; reset: ReturnType<typeof code> } {
  const word = ctx.t("alerts-word-threshold");
  return { command: code(`/alerts ${word} ${ctx.t("alerts-example-amount")}`), reset: code(`/alerts ${word} ${ctx.t("alerts-word-default")}`) };
}

/** The card's text: what is watched and the low-balance threshold (or that its alert is off). */
function alertsTitle(tr: Translator, settings: AlertSettings, locale: string): string {
  const threshold = !settings.lowBalance
    ? translate(tr, "alerts-threshold-off")
    : settings.thresholdSun === undefined
      ? translate(tr, "alerts-threshold-default", { minTrx: formatTrx(DEFAULT_LOW_BALANCE_SUN, locale) })
      : translate(tr, "alerts-threshold-own", { thresholdTrx: formatTrx(BigInt(settings.thresholdSun), locale) });
  return translate(tr, "alerts-title", { threshold, ...syntaxes(tr) });
}

/** A threshold as typed (after `/alerts threshold`, or to ✏️): exact TRX, or a word for the default (`sun` undefined). */
type ThresholdAnswer = { ok: true; sun: bigint | undefined } | { ok: false; text: string };

/** The one reading of a typed threshold, for the command and the ✏️ step alike. */
function readThresholdAnswer(tr: Translator, value: string, locale: string): ThresholdAnswer {
  if (DEFAULT_WORDS.has(value.toLowerCase())) return { ok: true, sun: undefined };
  const parsed = parseThreshold(value, locale);
  if (!parsed.ok && parsed.reason === "ambiguous") {
    const [first, second] = parsed.readings.map((sun) => formatTrx(sun, locale));
    return { ok: false, text: translate(tr, "input-trx-ambiguous", { value: echo(value), first: first!, second: second! }) };
  }
  if (!parsed.ok) {
    return {
      ok: false,
      text: translate(tr, `alerts-threshold-invalid-${parsed.reason}`, { value: code(echo(value)), maxTrx: formatTrx(MAX_THRESHOLD_SUN, locale) }),
    };
  }
  return { ok: true, sun: parsed.sun };
}

/** What a set threshold is confirmed with. */
function thresholdSetText(tr: Translator, sun: bigint | undefined, locale: string): string {
  return sun === undefined ? translate(tr, "alerts-threshold-reset") : translate(tr, "alerts-threshold-set", { thresholdTrx: formatTrx(sun, locale) });
}

type AlertsConversation = Conversation<BotContext, ConversationContext>;

/**
 * ✏️ under the threshold presets: asks for the amount until it reads as the command reads it, sets it (the
 * alert on, as a preset does), and draws the card it was asked from (`cardId`) again. Any command or
 * button leaves the step and runs as usual.
 */
function createThresholdInputConversation(deps: BotDeps) {
  return async function thresholdInput(conversation: AlertsConversation, ctx: ConversationContext, cardId?: number): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const question = translate(ctx, "alerts-threshold-ask", syntaxes(ctx));
    const prompt = await sendStepPrompt(conversation, ctx, question, HTML);
    for (;;) {
      const next = await conversation.wait();
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text?.trim();
      if (text === undefined || text === "") {
        await ctx.reply(translate(next, "alerts-threshold-ask-text"), HTML);
        continue;
      }
      const locale = await next.i18n.getLocale();
      const read = readThresholdAnswer(next, text, locale);
      if (!read.ok) {
        await ctx.reply(read.text, HTML);
        continue;
      }
      const settings = await conversation.external(async () => {
        await deps.alerts.setThreshold(chatId, read.sun);
        return deps.alerts.setSwitch(chatId, "lowBalance", true);
      });
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: text });
      await ctx.reply(thresholdSetText(next, read.sun, locale), HTML);
      if (typeof cardId === "number") {
        const card = alertsTitle(next, settings, locale);
        await editIgnoringUnchanged(() =>
          ctx.api.editMessageText(chatId, cardId, card, { ...HTML, reply_markup: createAlertsKeyboard(next, settings, locale) }),
        ).catch((error: unknown) => ctx.logger.info({ err: error }, "could not draw the alerts card again"));
      }
      return;
    }
  };
}

/**
 * /alerts: what the balance watch tells this chat on its own (deposits, a balance below the threshold,
 * charges the bot did not make). The card switches deposits and foreign charges, and offers the
 * low-balance alert as one choice: the default threshold, presets in TRX, ✏️ another amount, or Off.
 * Typing works too: `/alerts threshold 25.5` (exact TRX, as the chat's language writes numbers) or
 * `/alerts threshold default`. Stored per chat; no key needed.
 */
export function createAlertsFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const conversation = createConversation<BotContext, ConversationContext>(createThresholdInputConversation(deps), {
    id: ALERTS_THRESHOLD_CONVERSATION,
    maxMillisecondsToWait: 10 * 60_000,
  });
  const feature = composer.chatType("private");

  async function show(ctx: BotContext, settings: AlertSettings): Promise<void> {
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(alertsTitle(ctx, settings, locale), { ...HTML, reply_markup: createAlertsKeyboard(ctx, settings, locale) });
  }

  /** The card the tap came from, drawn with the settings now. */
  async function redraw(ctx: BotContext, settings: AlertSettings): Promise<void> {
    const locale = await ctx.i18n.getLocale();
    const text = alertsTitle(ctx, settings, locale);
    await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: createAlertsKeyboard(ctx, settings, locale) }));
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
    const locale = await ctx.i18n.getLocale();
    const read = readThresholdAnswer(ctx, value, locale);
    if (!read.ok) {
      await ctx.reply(read.text, HTML);
      return;
    }
    const settings = await deps.alerts.setThreshold(chatId, read.sun);
    ctx.logger.info({ thresholdSun: read.sun?.toString() ?? "default" }, "low-balance threshold set");
    await ctx.reply(thresholdSetText(ctx, read.sun, locale), HTML);
    return show(ctx, settings);
  });

  /** A threshold button: a preset read as the command reads it, the default, or ✏️ (asked); a choice turns the alert on. */
  async function pickThreshold(ctx: BotContext & { chat: { id: number } }, value: string): Promise<void> {
    const chatId = ctx.chat.id;
    if (value === THRESHOLD_CUSTOM) {
      await ctx.answerCallbackQuery();
      const cardId = ctx.callbackQuery?.message?.message_id;
      await ctx.enterFlow(ALERTS_THRESHOLD_CONVERSATION, ...(cardId === undefined ? [] : [cardId]));
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const read =
      value === THRESHOLD_DEFAULT ? { ok: true as const, sun: undefined } : /^\d{1,9}$/.test(value) ? readThresholdAnswer(ctx, value, locale) : undefined;
    if (read === undefined || !read.ok) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const before = await deps.alerts.get(chatId);
    await ctx.answerCallbackQuery({
      text: read.sun === undefined ? ctx.t("alerts-threshold-toast-default") : ctx.t("alerts-threshold-toast", { thresholdTrx: formatTrx(read.sun, locale) }),
    });
    // A second tap on the threshold in force (a stale button) changes nothing: no write, no edit.
    if (before.lowBalance && before.thresholdSun === read.sun?.toString()) return;
    await deps.alerts.setThreshold(chatId, read.sun);
    const settings = await deps.alerts.setSwitch(chatId, "lowBalance", true);
    ctx.logger.info({ thresholdSun: read.sun?.toString() ?? "default" }, "low-balance threshold set");
    await redraw(ctx, settings);
  }

  feature.callbackQuery(alertsData.filter, logHandle("callback-alerts"), async (ctx) => {
    const data = alertsData.unpack(ctx.callbackQuery.data);
    if (data?.kind === "threshold") return pickThreshold(ctx, data.value);
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
    await redraw(ctx, settings);
  });

  return { composer, conversation, routes: { commands: ["alerts"], callbacks: [alertsData] } };
}
