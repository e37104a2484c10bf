import { Composer } from "grammy";
import { createConversation, type Conversation } from "@grammyjs/conversations";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import type { LimitField } from "../../shared/limits/limit-settings.js";
import { parseTimeZoneInput } from "../../shared/limits/zone-input.js";
import { readTrxAmount } from "../../shared/money.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { isLimitAmountInput, isLimitInput, limitPresetData, limitsData, type LimitAmountInput, type LimitInput } from "../../bot/callback-data/limits.js";
import type { BotContext, ConversationContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { echo } from "../../bot/helpers/echo.js";
import { editIgnoringUnchanged, isUneditable } from "../../bot/helpers/edit.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { limitsCardText } from "./limits-texts.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createLimitPresetsKeyboard, createLimitsKeyboard } from "./limits-keyboards.js";

const LIMITS_INPUT_CONVERSATION = "limits-input";

const FIELD_OF: Record<LimitAmountInput, LimitField> = { d: "dailyCapSun", m: "monthlyCapSun", t: "confirmAboveSun" };
const ASK_KEY: Record<LimitInput, string> = { d: "limits-ask-daily", m: "limits-ask-monthly", t: "limits-ask-threshold", z: "limits-ask-zone" };
const PICK_KEY: Record<LimitAmountInput, string> = { d: "limits-pick-daily", m: "limits-pick-monthly", t: "limits-pick-threshold" };
/** The "No limit" that prompts already in chats carry under them. */
const CLEAR_ACTIONS: Record<string, LimitAmountInput> = { cd: "d", cm: "m", ct: "t" };

type LimitsConversation = Conversation<BotContext, ConversationContext>;

/** An amount typed for a limit: exact TRX as the locale writes it ("50", "12.5", "12,5" and "1 000" in ru), more than 0. */
export function parseLimitAmount(text: string, locale: string): { ok: true; sun: bigint } | { ok: false; key: string; vars?: Record<string, string> } {
  const read = readTrxAmount(text, locale);
  if (!read.ok && read.reason === "ambiguous") {
    const [first, second] = read.readings.map((sun) => formatTrx(sun, locale));
    return { ok: false, key: "input-trx-ambiguous", vars: { first: first!, second: second! } };
  }
  if (!read.ok) return { ok: false, key: "limits-bad-amount" };
  return read.sun > 0n ? { ok: true, sun: read.sun } : { ok: false, key: "limits-not-positive" };
}

/**
 * Asks for one setting until it is valid; any command or button leaves the step and runs as usual. The
 * card it was asked from (`cardId`) is drawn again with the setting saved, and a short line says so; without
 * one (or once it cannot be edited) the card comes as a new message.
 */
function createLimitsInputConversation(deps: BotDeps) {
  const limits = deps.flows.limits;
  return async function limitsInput(conversation: LimitsConversation, ctx: ConversationContext, input: LimitInput, cardId?: number): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !isLimitInput(input)) return;
    const question = translate(ctx, ASK_KEY[input]);
    const prompt = await sendStepPrompt(conversation, ctx, question, HTML);
    for (;;) {
      const next = await conversation.wait();
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text?.trim();
      if (text === undefined) {
        await ctx.reply(translate(next, "limits-ask-text"), HTML);
        continue;
      }
      if (input === "z") {
        const parsed = parseTimeZoneInput(text);
        if (!parsed.ok) {
          const key = parsed.reason === "uneven_offset" ? "time-zone-uneven" : "limits-bad-zone";
          await ctx.reply(translate(next, key, { value: echo(text) }), HTML);
          continue;
        }
        await conversation.external(() => limits.setTimeZone(chatId, parsed.zone));
      } else {
        const parsed = parseLimitAmount(text, await next.i18n.getLocale());
        if (!parsed.ok) {
          await ctx.reply(translate(next, parsed.key, { value: echo(text), ...parsed.vars }), HTML);
          continue;
        }
        await conversation.external(() => limits.set(chatId, FIELD_OF[input], parsed.sun));
      }
      const { card, settings } = await conversation.external(async () => {
        const status = await limits.status(chatId);
        return { card: limitsCardText(next, status, await next.i18n.getLocale()), settings: status.settings };
      });
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: text });
      const saved = { text: `${translate(next, "limits-saved")}\n\n${card}`, options: { ...HTML, reply_markup: createLimitsKeyboard(next, settings) } };
      const redrawn =
        typeof cardId === "number" &&
        (await editIgnoringUnchanged(() => ctx.api.editMessageText(chatId, cardId, saved.text, saved.options)).then(
          () => true,
          (error: unknown) => {
            // Deleted or too old: the card comes anew below.
            if (isUneditable(error)) return false;
            throw error;
          },
        ));
      if (redrawn) await ctx.reply(translate(next, "limits-saved-above"), HTML);
      else await ctx.reply(saved.text, saved.options);
      return;
    }
  };
}

/**
 * /limits: the chat's daily and monthly caps with what was spent, the second-tap threshold, the
 * zone of its days, and Freeze / Unfreeze; `/freeze` freezes in one step. The shared domain enforces them
 * (src/shared/limits); this only shows and edits them.
 */
export function createLimitsFeature(deps: BotDeps): BotFeature {
  const limits = deps.flows.limits;
  const composer = new Composer<BotContext>();
  const conversation = createConversation<BotContext, ConversationContext>(createLimitsInputConversation(deps), {
    id: LIMITS_INPUT_CONVERSATION,
    maxMillisecondsToWait: 10 * 60_000,
  });
  const feature = composer.chatType("private");

  async function card(ctx: BotContext, chatId: number, note?: string) {
    const status = await limits.status(chatId);
    const text = limitsCardText(ctx, status, await ctx.i18n.getLocale());
    return { text: note === undefined ? text : `${translate(ctx, note)}\n\n${text}`, keyboard: createLimitsKeyboard(ctx, status.settings) };
  }

  feature.command("limits", logHandle("command-limits"), async (ctx) => {
    const shown = await card(ctx, ctx.chat.id);
    await ctx.reply(shown.text, { ...HTML, reply_markup: shown.keyboard });
  });

  feature.command("freeze", logHandle("command-freeze"), async (ctx) => {
    await limits.freeze(ctx.chat.id);
    const shown = await card(ctx, ctx.chat.id, "limits-frozen-done");
    await ctx.reply(shown.text, { ...HTML, reply_markup: shown.keyboard });
  });

  /** Asks for the setting typed; the card the tap came from is drawn again once it is saved. */
  async function askLimit(ctx: BotContext, input: LimitInput): Promise<void> {
    const cardId = ctx.callbackQuery?.message?.message_id;
    await ctx.enterFlow(LIMITS_INPUT_CONVERSATION, input, ...(cardId === undefined ? [] : [cardId]));
  }

  /** The card the tap came from, drawn anew (with a note above it). */
  async function redraw(ctx: BotContext, chatId: number, note?: string): Promise<void> {
    const shown = await card(ctx, chatId, note);
    await editIgnoringUnchanged(() => ctx.editMessageText(shown.text, { ...HTML, reply_markup: shown.keyboard }));
  }

  feature.callbackQuery(limitsData.filter, logHandle("callback-limits"), async (ctx) => {
    const action = limitsData.unpack(ctx.callbackQuery.data)?.action;
    const chatId = ctx.chat.id;
    if (isLimitAmountInput(action)) {
      // The card becomes the choices for this amount; ◀️ Back turns it into the card again.
      await ctx.answerCallbackQuery();
      const status = await limits.status(chatId);
      const locale = await ctx.i18n.getLocale();
      const text = `${limitsCardText(ctx, status, locale)}\n\n${translate(ctx, PICK_KEY[action])}`;
      const keyboard = createLimitPresetsKeyboard(ctx, action, status.settings[FIELD_OF[action]], locale);
      await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: keyboard }));
      return;
    }
    if (action === "z") {
      await ctx.answerCallbackQuery();
      await askLimit(ctx, action);
      return;
    }
    if (action === "b") {
      await ctx.answerCallbackQuery();
      await redraw(ctx, chatId);
      return;
    }
    if (action === "s") {
      await ctx.answerCallbackQuery();
      const shown = await card(ctx, chatId);
      await ctx.reply(shown.text, { ...HTML, reply_markup: shown.keyboard });
      return;
    }
    const cleared = action === undefined ? undefined : CLEAR_ACTIONS[action];
    let note: string;
    if (cleared !== undefined) {
      await limits.set(chatId, FIELD_OF[cleared], undefined);
      note = "limits-cleared";
    } else if (action === "f") {
      await limits.freeze(chatId);
      note = "limits-frozen-done";
    } else if (action === "u") {
      await limits.unfreeze(chatId);
      note = "limits-unfrozen-done";
    } else {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t(note) });
    const shown = await card(ctx, chatId, note);
    // The Freeze button sits on the card: it becomes the new card. An old prompt's "No limit": a new card follows.
    if (action === "f" || action === "u") await editIgnoringUnchanged(() => ctx.editMessageText(shown.text, { ...HTML, reply_markup: shown.keyboard }));
    else {
      await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
      await ctx.reply(shown.text, { ...HTML, reply_markup: shown.keyboard });
    }
  });

  /** A choice on the card for one amount: a preset (read as a typed amount is), No limit, or ✏️ Custom (asked). */
  feature.callbackQuery(limitPresetData.filter, logHandle("callback-limits-preset"), async (ctx) => {
    const data = limitPresetData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const input = data?.input;
    if (data === undefined || !isLimitAmountInput(input)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (data.value === "c") {
      await ctx.answerCallbackQuery();
      await askLimit(ctx, input);
      return;
    }
    let note: string;
    if (data.value === "x") {
      await limits.set(chatId, FIELD_OF[input], undefined);
      note = "limits-cleared";
    } else {
      const parsed = /^\d{1,9}$/.test(data.value) ? parseLimitAmount(data.value, await ctx.i18n.getLocale()) : undefined;
      if (!parsed?.ok) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      await limits.set(chatId, FIELD_OF[input], parsed.sun);
      note = "limits-saved";
    }
    ctx.logger.info({ field: FIELD_OF[input], value: data.value }, "limit set by a button");
    await ctx.answerCallbackQuery({ text: ctx.t(note) });
    await redraw(ctx, chatId, note);
  });

  return { composer, conversation, routes: { commands: ["limits", "freeze"], callbacks: [limitsData, limitPresetData] } };
}
