import { Composer } from "grammy";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import { createLimitsFixKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { withHomeRow } from "../../bot/keyboards/menu.js";
import { showScreen } from "../../bot/helpers/screen.js";
import { parseKeepCommand, type KeepParse } from "./keep-input.js";
import type { KeepPlans } from "./keep-plans.js";
import { keepDraftInput, saveKeepDraft, withDefaultCap, type KeepDraftInput } from "./keep-proposal.js";
import { sortedTiers } from "../../shared/orders/order-input.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { keepData, keepOrderData } from "../../bot/callback-data/keep.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { echo } from "../../bot/helpers/echo.js";
import { formatChoices } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { keepDraftText, keepListText } from "./keep-texts.js";
import { orderPartErrorText } from "../../bot/helpers/order-part-error.js";
import { KEEP_CONVERSATION } from "../../bot/conversations/flow-ids.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { tierLabel } from "../../bot/helpers/tiers.js";
import { linkedForButton, linkedOnly } from "../../bot/filters/linked.js";
import { createKeepDraftKeyboard, createKeepListKeyboard } from "./keep-keyboards.js";

export interface KeepFeatureDeps extends BotDeps {
  keep: KeepPlans;
}

function parseErrorText(ctx: BotContext, error: Exclude<KeepParse, { ok: true }>, durations: string, locale: string): string {
  if (error.reason === "bad_option") return translate(ctx, `keep-bad-${error.option}`, { value: echo(error.value) });
  return orderPartErrorText(ctx, error, durations, locale) ?? translate(ctx, "keep-usage", { durations });
}

/**
 * /keep: the chat's plans with Pause / Resume / Stop; `/keep <address|label>
 * <amount> <duration> [options]` proposes a plan with its price, and Start
 * makes it and buys its first slot, the proposal becoming the plan's card
 * (its renewals' digest, redrawn in place, with the plan's buttons); "Keep
 * charged" under an order proposes the same receiver, amount and duration.
 */
export function createKeepFeature(deps: KeepFeatureDeps): BotFeature {
  const { flows, keep } = deps;

  /** A frozen chat starts and resumes nothing: said at the button, not after a plan that can never buy. */
  async function refusedWhileFrozen(ctx: BotContext, chatId: number): Promise<boolean> {
    if (!(await flows.limits.isFrozen(chatId))) return false;
    await ctx.answerCallbackQuery();
    // With the button that resolves it: unfreezing here, then the plan's own button again.
    await ctx.reply(translate(ctx, "keep-refused-frozen"), { ...HTML, reply_markup: createLimitsFixKeyboard(ctx, { allowed: false, reason: "frozen" }) });
    return true;
  }
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function showList(ctx: BotContext, chatId: number, edit: boolean): Promise<void> {
    const plans = await keep.list(chatId);
    const locale = await ctx.i18n.getLocale();
    const timeZone = await flows.limits.timeZoneOf(chatId);
    const text = keepListText(ctx, plans, (p) => keep.spentToday(p), { nowMs: flows.now(), locale, timeZone });
    const keyboard = withHomeRow(ctx, createKeepListKeyboard(ctx, plans));
    if (edit) await editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, reply_markup: keyboard }));
    else await showScreen(ctx, text, keyboard);
  }

  async function propose(ctx: BotContext, input: KeepDraftInput, pricing: Pricing): Promise<void> {
    const draft = await saveKeepDraft(keep, flows.now(), pricing, input);
    if (draft === undefined) {
      await ctx.reply(translate(ctx, "keep-usage", { durations: "-" }), HTML);
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const timeZone = await flows.limits.timeZoneOf(input.chatId);
    await ctx.reply(keepDraftText(ctx, draft, { nowMs: flows.now(), locale, timeZone }), {
      ...HTML,
      reply_markup: createKeepDraftKeyboard(ctx, draft.draftId),
    });
  }

  async function oneShot(ctx: BotContext, chatId: number, text: string): Promise<void> {
    const pricing = await deps.pricing.get();
    const locale = await ctx.i18n.getLocale();
    const durations = formatChoices(
      sortedTiers(pricing.tiers).map((t) => tierLabel(ctx, t)),
      locale,
    );
    const timeZone = await flows.limits.timeZoneOf(chatId);
    const resolve = (receiver: string) => flows.addressBook.resolve(chatId, receiver);
    const parsed = await parseKeepCommand(text, pricing, resolve, flows.now(), locale, timeZone);
    if (!parsed.ok) {
      await ctx.reply(parseErrorText(ctx, parsed, durations, locale), HTML);
      return;
    }
    await propose(ctx, keepDraftInput({ chatId, ...parsed }, parsed.options), pricing);
  }

  feature.command(
    "keep",
    logHandle("command-keep"),
    linkedOnly(async (ctx) => {
      const text = ctx.match.trim();
      if (text) return oneShot(ctx, ctx.chat.id, text);
      await showList(ctx, ctx.chat.id, false);
    }),
  );

  // Keep charged on the home card: the plans, in the card's place.
  feature.callbackQuery(
    menuAction("keep"),
    logHandle("callback-menu-keep"),
    linkedOnly(async (ctx) => {
      await ctx.answerCallbackQuery();
      await showList(ctx, ctx.chat.id, false);
    }),
  );

  feature.callbackQuery(keepOrderData.filter, logHandle("callback-keep-order"), async (ctx) => {
    const data = keepOrderData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const entry = data ? await flows.history.get(chatId, "order", data.orderId) : undefined;
    if (entry?.address === undefined || entry.amount === undefined || entry.durationSec === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if ((await linkedForButton(ctx)) === undefined) return;
    await ctx.answerCallbackQuery();
    const pricing = await deps.pricing.get();
    const timeZone = await flows.limits.timeZoneOf(chatId);
    const input: KeepDraftInput = { chatId, address: entry.address, amount: entry.amount, durationSec: entry.durationSec, timeZone };
    // One tap from Start: it carries the default cap (the chat's daily limit or one day of renewals).
    const chatCap = (await flows.limits.status(chatId)).settings.dailyCapSun;
    await propose(ctx, withDefaultCap(input, pricing, chatCap), pricing);
  });

  feature.callbackQuery(keepData.filter, logHandle("callback-keep"), async (ctx) => {
    const data = keepData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    if (data === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (data.action === "n") {
      if ((await linkedForButton(ctx)) === undefined) return;
      await ctx.answerCallbackQuery();
      await ctx.enterFlow(KEEP_CONVERSATION);
      return;
    }
    if (data.action === "l") {
      await ctx.answerCallbackQuery();
      await showList(ctx, chatId, true);
      return;
    }
    if (data.action === "c" || data.action === "x") {
      const draft = await keep.store.getDraft(data.id);
      if (draft?.chatId !== chatId) {
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
        return;
      }
      if (data.action === "x") {
        await keep.store.deleteDraft(draft.draftId);
        await ctx.answerCallbackQuery();
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "keep-draft-cancelled"), HTML));
        return;
      }
      const account = await linkedForButton(ctx);
      if (account === undefined) return;
      if (await refusedWhileFrozen(ctx, chatId)) return;
      await ctx.answerCallbackQuery();
      const locale = await ctx.i18n.getLocale();
      const { linkId } = account.record;
      const cardMessageId = ctx.callbackQuery.message?.message_id;
      // Buttons off at once (a second Start finds the draft gone); the card replaces this once the first order is placed.
      await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "keep-started"), HTML));
      const plan = await keep.createFromDraft(draft, {
        locale,
        ...(linkId === undefined ? {} : { linkId }),
        ...(cardMessageId === undefined ? {} : { cardMessageId }),
      });
      await keep.drawCard(chatId, plan.planId);
      return;
    }
    if (data.action === "v") {
      const drawn = await keep.drawCard(chatId, data.id);
      await ctx.answerCallbackQuery(drawn ? undefined : { text: ctx.t("button-expired") });
      return;
    }
    const action = data.action === "p" ? "pause" : data.action === "r" ? "resume" : data.action === "s" ? "stop" : undefined;
    if (action === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (action === "resume" && ((await linkedForButton(ctx)) === undefined || (await refusedWhileFrozen(ctx, chatId)))) return;
    const result = await keep.act(chatId, data.id, action);
    if (!result.ok && result.reason === "not_found") {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t(result.ok ? `keep-done-${action}` : `keep-already-${result.reason}`) });
    // On the plan's card the plans drew the card anew already; elsewhere (the list, a notice) the list takes the message.
    if (result.plan?.cardMessageId !== undefined && result.plan.cardMessageId === ctx.callbackQuery.message?.message_id) return;
    await showList(ctx, chatId, true);
  });

  return { composer, routes: { commands: ["keep"], callbacks: [menuData, keepOrderData, keepData] } };
}
