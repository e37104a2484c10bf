import { Composer, InlineKeyboard } from "grammy";
import { miniAppScreenUrl } from "../../bot/helpers/mini-app-url.js";
import type { KeepPlan } from "../keep/index.js";
import { ServiceError } from "../../platform/service/errors.js";
import { lowBalanceThresholdSun } from "../../shared/chats/alert-settings.js";
import { homeData, menuData } from "../../bot/callback-data/menu.js";
import { limitsData } from "../../bot/callback-data/limits.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { placeFirstPromptOnPressedCard, showCard } from "../../bot/helpers/screen.js";
import { createLinkedMenuKeyboard, createWelcomeMenuKeyboard } from "../../bot/keyboards/menu.js";
import { greetedName, rentingTodayText } from "./greeting.js";

/** The home card: its text and buttons, as a message or an edit. */
export interface HomeCard {
  text: string;
  keyboard: InlineKeyboard;
}

type AvailableBalance = { availableSun: number } | "no-wallet" | "unreadable";

/**
 * The home card of a chat. Linked: the balance, what needs the user (a paused plan, a balance under
 * the alert level, frozen spending), today's prices and the main actions; the buttons that resolve
 * what needs attention come first. Not linked: the greeting with Connect and a look around.
 */
export async function renderHome(ctx: BotContext, deps: BotDeps): Promise<HomeCard> {
  const name = greetedName(ctx);
  const account = await ctx.linked();
  const prices = await rentingTodayText(ctx, deps);
  if (account === undefined) {
    return {
      text: translate(ctx, "start-welcome", { name, prices }),
      keyboard: createWelcomeMenuKeyboard(ctx, ctx.links),
    };
  }
  const chatId = account.chatId;
  const locale = await ctx.i18n.getLocale();
  const [balance, plans, frozen, alerts, nextRenewalSun] = await Promise.all([
    readAvailable(ctx, deps, account.apiKey),
    deps.keep?.list(chatId) ?? Promise.resolve([] as KeepPlan[]),
    deps.flows.limits.isFrozen(chatId),
    deps.alerts.get(chatId),
    deps.keep?.nextRenewalCostSun(chatId),
  ]);
  const lines = [translate(ctx, "home-title", { name })];
  if (typeof balance === "object") lines.push(translate(ctx, "home-balance", { availableTrx: formatTrx(balance.availableSun, locale) }));
  else lines.push(translate(ctx, balance === "no-wallet" ? "home-balance-no-wallet" : "home-balance-unreadable"));

  const attention: string[] = [];
  const resolve = new InlineKeyboard();
  if (frozen) {
    attention.push(translate(ctx, "home-attention-frozen"));
    resolve.text(ctx.t("buttons-home-limits"), limitsData.pack({ action: "s" }));
  }
  if (typeof balance === "object" && alerts.lowBalance) {
    // The level the balance watch alerts at: the user's, else the default raised to the next renewal's cost.
    const thresholdSun = lowBalanceThresholdSun(alerts, nextRenewalSun);
    if (BigInt(balance.availableSun) < thresholdSun) {
      attention.push(translate(ctx, "home-attention-low-balance", { thresholdTrx: formatTrx(thresholdSun, locale) }));
      resolve.text(ctx.t("buttons-menu-topup"), menuData.pack({ action: "topup" }));
    }
  }
  const labels = plans.some((p) => p.state === "paused") ? await deps.flows.addressBook.labels(chatId) : new Map<string, string>();
  for (const plan of plans) {
    if (plan.state !== "paused") continue;
    const receiver = labels.get(plan.address) ?? code(plan.address);
    attention.push(translate(ctx, plan.pauseReason === "balance" ? "home-attention-plan-balance" : "home-attention-plan-paused", { receiver }));
  }
  if (attention.length > 0) lines.push([translate(ctx, "home-attention"), ...attention].join("\n"));
  lines.push(prices);

  const offers = {
    send: deps.send !== undefined && deps.config.publicUrl !== undefined,
    keep: deps.keep !== undefined,
    // Offered where Telegram can open it: an https PUBLIC_URL, a private chat.
    historyApp: ctx.chat?.type === "private" ? miniAppScreenUrl(deps.config.publicUrl, "history") : undefined,
  };
  const menu = createLinkedMenuKeyboard(ctx, ctx.links, offers);
  const keyboard = resolve.inline_keyboard.flat().length > 0 ? InlineKeyboard.from([...resolve.inline_keyboard, ...menu.inline_keyboard]) : menu;
  return { text: lines.join("\n\n"), keyboard };
}

async function readAvailable(ctx: BotContext, deps: BotDeps, apiKey: string): Promise<AvailableBalance> {
  try {
    return await deps.service.getBalance(apiKey);
  } catch (error) {
    if (ServiceError.isInstance(error) && error.isNotFound) return "no-wallet";
    // The card is the way in: a slow or failing service costs its balance line, not the card.
    ctx.logger.warn({ err: error }, "balance unreadable for the home card");
    return "unreadable";
  }
}

/** The home card as a new message (/start). */
export async function replyHome(ctx: BotContext, deps: BotDeps): Promise<void> {
  const card = await renderHome(ctx, deps);
  await ctx.reply(card.text, { ...HTML, reply_markup: card.keyboard });
}

/**
 * Main actions pressed on a card navigate in place (helpers/screen.ts, the first prompt of a flow).
 * ◀️ Home on any card: that message becomes the home card again, in place. A photo (the /balance card)
 * cannot become a text message, so there the home card comes as a new one.
 */
export function createHomeFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  // A main action pressed on a card: a flow it opens asks its first question in that card's place.
  feature.callbackQuery(menuData.filter, (ctx, next) => {
    placeFirstPromptOnPressedCard(ctx);
    return next();
  });
  feature.callbackQuery(homeData.filter, logHandle("callback-home"), async (ctx) => {
    await ctx.answerCallbackQuery();
    const card = await renderHome(ctx, deps);
    await showCard(ctx, card.text, card.keyboard);
  });
  return { composer, routes: { callbacks: [menuData, homeData] } };
}
