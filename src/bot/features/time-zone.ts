import { createConversation, type Conversation } from "@grammyjs/conversations";
import { sendStepPrompt } from "../helpers/step-prompt.js";
import { Composer } from "../composer.js";
import { parseTimeZoneInput, zoneLabel } from "../../core/limits/zone-input.js";
import { commonTimeZoneOf, offeredTimeZoneOf, timeZoneData } from "../callback-data/time-zone.js";
import type { ChatZone } from "../../core/limits/chat-zone.js";
import type { BotContext, ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { echo } from "../helpers/echo.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { createTimeZoneKeyboard, withoutZoneOffer, zoneOfferVars } from "../keyboards/time-zone.js";
import { bestEffort } from "../helpers/best-effort.js";

const TIME_ZONE_INPUT_CONVERSATION = "time-zone-input";

type TimeZoneConversation = Conversation<BotContext, ConversationContext>;

/** Asks for a zone (a city, a UTC offset or an IANA name) until one is known; any command or button leaves the step and runs as usual. */
function createTimeZoneInputConversation(deps: BotDeps) {
  const limits = deps.flows.limits;
  return async function timeZoneInput(conversation: TimeZoneConversation, ctx: ConversationContext): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    await sendStepPrompt(conversation, ctx, translate(ctx, "time-zone-ask"), HTML);
    for (;;) {
      const next = await conversation.wait();
      if (next.message?.text?.startsWith("/") || next.callbackQuery) await conversation.halt({ next: true });
      const text = next.message?.text?.trim();
      const parsed = parseTimeZoneInput(text ?? "");
      if (!parsed.ok) {
        const key = parsed.reason === "uneven_offset" ? "time-zone-uneven" : "time-zone-bad";
        await ctx.reply(translate(next, key, { value: echo(text ?? "") }), HTML);
        continue;
      }
      const { zone } = parsed;
      const nowMs = await conversation.external(async () => {
        await limits.setTimeZone(chatId, zone);
        return deps.flows.now();
      });
      await ctx.reply(translate(next, "time-zone-saved", { zone: zoneLabel(zone, nowMs) }), HTML);
      return;
    }
  };
}

/**
 * The chat's one time zone (the same /limits sets): every time the bot shows is in it, and it bounds
 * the days and months of the limits. Reached from /settings: common zones as buttons, or a city, a UTC
 * offset or an IANA name typed; and offered under the messages that show times until the chat picks one.
 */
export function createTimeZoneFeature(deps: BotDeps): Composer<BotContext> {
  const limits = deps.flows.limits;
  const composer = new Composer<BotContext>();
  // Installed before the handlers so `enter` below finds it.
  composer.use(
    createConversation<BotContext, ConversationContext>(createTimeZoneInputConversation(deps), {
      id: TIME_ZONE_INPUT_CONVERSATION,
      maxMillisecondsToWait: 10 * 60_000,
    }),
  );
  const feature = composer.chatType("private");

  /** The menu says when its zone is only the default, so picking that same zone is a visible change too. */
  const menuText = (ctx: BotContext, zone: ChatZone) => {
    const title = translate(ctx, "time-zone-title", { zone: zoneLabel(zone.zone, deps.flows.now()) });
    return zone.chosen ? title : `${title}\n\n${translate(ctx, "time-zone-unchosen", { zone: zoneLabel(zone.zone, deps.flows.now()) })}`;
  };

  feature.callbackQuery(timeZoneData.filter, logHandle("callback-time-zone"), async (ctx) => {
    const action = timeZoneData.unpack(ctx.callbackQuery.data)?.action;
    const chatId = ctx.chat.id;
    if (action === "m") {
      await ctx.answerCallbackQuery();
      const zone = await limits.zoneOf(chatId);
      await ctx.reply(menuText(ctx, zone), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone.zone) });
      return;
    }
    if (action === "o") {
      await ctx.answerCallbackQuery();
      await ctx.conversation.enter(TIME_ZONE_INPUT_CONVERSATION);
      return;
    }
    const offered = offeredTimeZoneOf(action);
    if (offered !== undefined) {
      // The offer under a message with times: the zone is set, the offer leaves that message, the rest of its buttons stay.
      await limits.setTimeZone(chatId, offered);
      ctx.logger.info({ zone: offered, offered: true }, "time zone changed");
      await ctx.answerCallbackQuery({ text: ctx.t("time-zone-offer-saved", zoneOfferVars(offered, deps.flows.now())) });
      const rows = withoutZoneOffer(ctx.callbackQuery.message?.reply_markup?.inline_keyboard ?? []);
      await bestEffort(ctx, "editMessageReplyMarkup", () =>
        editIgnoringUnchanged(() => ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: rows } })),
      );
      return;
    }
    const zone = commonTimeZoneOf(action);
    if (zone === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await limits.setTimeZone(chatId, zone);
    ctx.logger.info({ zone }, "time zone changed");
    await ctx.answerCallbackQuery({ text: ctx.t("time-zone-saved-short", { zone }) });
    await editIgnoringUnchanged(() => ctx.editMessageText(menuText(ctx, { zone, chosen: true }), { ...HTML, reply_markup: createTimeZoneKeyboard(ctx, zone) }));
  });

  return composer;
}
