import { createConversation, type Conversation } from "@grammyjs/conversations";
import { sendStepPrompt } from "../helpers/step-prompt.js";
import { Composer } from "../composer.js";
import type { LimitField } from "../../core/limits/limit-settings.js";
import { parseTimeZoneInput } from "../../core/limits/zone-input.js";
import { readTrxAmount } from "../../core/money.js";
import { formatTrx } from "../helpers/format.js";
import { isLimitInput, limitsData, type LimitInput } from "../callback-data/limits.js";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { echo } from "../helpers/echo.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { limitsCardText } from "../helpers/limits-text.js";
import { logHandle } from "../helpers/logging.js";
import { createLimitClearKeyboard, createLimitsKeyboard } from "../keyboards/limits.js";

const LIMITS_INPUT_CONVERSATION = "limits-input";

const FIELD_OF: Record<Exclude<LimitInput, "z">, LimitField> = { d: "dailyCapSun", m: "monthlyCapSun", t: "confirmAboveSun" };
const ASK_KEY: Record<LimitInput, string> = { d: "limits-ask-daily", m: "limits-ask-monthly", t: "limits-ask-threshold", z: "limits-ask-zone" };
const CLEAR_ACTIONS: Record<string, Exclude<LimitInput, "z">> = { cd: "d", cm: "m", ct: "t" };

type LimitsConversation = Conversation<BotContext, ConversationContext>;

/** An amount typed for a limit: exact TRX as the locale writes it ("50", "12.5", "12,5" and "1 000" in ru), more than 0. */
function parseLimitAmount(text: string, locale: string): { ok: true; sun: bigint } | { ok: false; key: string; vars?: Record<string, string> } {
  const read = readTrxAmount(text, locale);
  if (!read.ok && read.reason === "ambiguous") {
    const [first, second] = read.readings.map((sun) => formatTrx(sun, locale));
    return { ok: false, key: "input-trx-ambiguous", vars: { first: first!, second: second! } };
  }
  if (!read.ok) return { ok: false, key: "limits-bad-amount" };
  return read.sun > 0n ? { ok: true, sun: read.sun } : { ok: false, key: "limits-not-positive" };
}

/** Asks for one setting until it is valid; any command or button leaves the step and runs as usual. */
function createLimitsInputConversation(deps: BotDeps) {
  const limits = deps.flows.limits;
  return async function limitsInput(conversation: LimitsConversation, ctx: ConversationContext, input: LimitInput): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !isLimitInput(input)) return;
    await sendStepPrompt(conversation, ctx, translate(ctx, ASK_KEY[input]), {
      ...HTML,
      ...(input === "z" ? {} : { reply_markup: createLimitClearKeyboard(ctx, input) }),
    });
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
      await ctx.reply(`${translate(next, "limits-saved")}\n\n${card}`, { ...HTML, reply_markup: createLimitsKeyboard(next, settings) });
      return;
    }
  };
}

/**
 * /limits: the chat's daily and monthly caps with what was spent, the second-tap threshold, the
 * zone of its days, and Freeze / Unfreeze; `/freeze` freezes in one step. The core enforces them
 * (src/core/limits); this only shows and edits them.
 */
export function createLimitsFeature(deps: BotDeps): Composer<BotContext> {
  const limits = deps.flows.limits;
  const composer = new Composer<BotContext>();
  // Installed before the handlers so `enter` below finds it.
  composer.use(
    createConversation<BotContext, ConversationContext>(createLimitsInputConversation(deps), {
      id: LIMITS_INPUT_CONVERSATION,
      maxMillisecondsToWait: 10 * 60_000,
    }),
  );
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

  feature.callbackQuery(limitsData.filter, logHandle("callback-limits"), async (ctx) => {
    const action = limitsData.unpack(ctx.callbackQuery.data)?.action;
    const chatId = ctx.chat.id;
    if (isLimitInput(action)) {
      await ctx.answerCallbackQuery();
      await ctx.conversation.enter(LIMITS_INPUT_CONVERSATION, action);
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
    // The Freeze button sits on the card: it becomes the new card. "No limit" sits on a prompt: a new card follows.
    if (action === "f" || action === "u") await editIgnoringUnchanged(() => ctx.editMessageText(shown.text, { ...HTML, reply_markup: shown.keyboard }));
    else {
      await editIgnoringUnchanged(() => ctx.editMessageReplyMarkup());
      await ctx.reply(shown.text, { ...HTML, reply_markup: shown.keyboard });
    }
  });

  return composer;
}
