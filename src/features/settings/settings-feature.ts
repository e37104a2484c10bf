import { Composer } from "grammy";
import type { NotificationSettings } from "../../shared/chats/chat-record.js";
import { settingsData } from "../../bot/callback-data/settings.js";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createSettingsKeyboard, type SettingsSwitches } from "./settings-keyboards.js";
import { addTimeZoneButton, TIME_ZONE_BACK } from "./time-zone-keyboards.js";
import { timeZoneData } from "../../bot/callback-data/time-zone.js";
import { withHomeRow } from "../../bot/keyboards/menu.js";
import { showScreen } from "../../bot/helpers/screen.js";

const DEFAULT_SETTINGS: NotificationSettings = { orders: true, broadcasts: true };
const KINDS = ["orders", "broadcasts"] as const;
type Kind = (typeof KINDS)[number];
const isKind = (value: string | undefined): value is Kind => KINDS.some((k) => k === value);

/**
 * /settings: whether the bot tells this chat on its own about order and
 * broadcast status changes. Stored per chat; the tracker and the webhook
 * relay read it before announcing. No key needed.
 */
export function createSettingsFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  /**
   * The opt-in switches join the notification switches when the app has them: the reminders before a delegation
   * ends (docs/expiry.md) and the keep plans' daily summary (docs/autopilot.md).
   */
  const withOptIns = async (chatId: number, settings: NotificationSettings): Promise<SettingsSwitches> => ({
    ...settings,
    ...(deps.reminders ? { expiry: await deps.reminders.isEnabled(chatId) } : {}),
    ...(deps.keepSummaries ? { keepDay: await deps.keepSummaries.isEnabled(chatId) } : {}),
  });

  /** The switches, then the chat's time zone (time-zone.ts handles its button). */
  const keyboard = async (ctx: BotContext, chatId: number, settings: SettingsSwitches) =>
    withHomeRow(ctx, addTimeZoneButton(createSettingsKeyboard(ctx, settings), ctx, await deps.flows.limits.timeZoneOf(chatId)));

  async function showSettings(ctx: BotContext & { chat: { id: number } }): Promise<void> {
    const settings = await withOptIns(ctx.chat.id, (await ctx.chatRecord())?.notifications ?? DEFAULT_SETTINGS);
    await showScreen(ctx, translate(ctx, "settings-title"), await keyboard(ctx, ctx.chat.id, settings));
  }

  feature.command("settings", logHandle("command-settings"), showSettings);
  // ◀️ Back from the time-zone choices opened on this card: the card again, its zone as now chosen.
  feature.callbackQuery(TIME_ZONE_BACK, logHandle("callback-settings-back"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showSettings(ctx);
  });
  feature.callbackQuery(menuAction("settings"), logHandle("callback-menu-settings"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showSettings(ctx);
  });

  const { reminders } = deps;
  if (reminders)
    feature.callbackQuery(settingsData.filter).filter(
      (ctx) => settingsData.unpack(ctx.callbackQuery.data)?.kind === "expiry",
      logHandle("callback-settings-expiry"),
      async (ctx) => {
        const enabled = settingsData.unpack(ctx.callbackQuery.data)?.value === "on";
        const before = await reminders.isEnabled(ctx.chat.id);
        await ctx.answerCallbackQuery({ text: ctx.t(enabled ? "expiry-settings-enabled" : "expiry-settings-disabled") });
        if (before === enabled) return;
        await reminders.setEnabled(ctx.chat.id, enabled);
        ctx.logger.info({ kind: "expiry", enabled }, "notification setting changed");
        const settings = await withOptIns(ctx.chat.id, (await ctx.chatRecord())?.notifications ?? DEFAULT_SETTINGS);
        const markup = await keyboard(ctx, ctx.chat.id, settings);
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "settings-title"), { ...HTML, reply_markup: markup }));
      },
    );

  const { keepSummaries } = deps;
  if (keepSummaries)
    feature.callbackQuery(settingsData.filter).filter(
      (ctx) => settingsData.unpack(ctx.callbackQuery.data)?.kind === "keepday",
      logHandle("callback-settings-keep-day"),
      async (ctx) => {
        const enabled = settingsData.unpack(ctx.callbackQuery.data)?.value === "on";
        const before = await keepSummaries.isEnabled(ctx.chat.id);
        await ctx.answerCallbackQuery({ text: ctx.t(enabled ? "settings-keep-day-enabled" : "settings-keep-day-disabled") });
        if (before === enabled) return;
        await keepSummaries.setEnabled(ctx.chat.id, enabled);
        ctx.logger.info({ kind: "keep-day", enabled }, "notification setting changed");
        const settings = await withOptIns(ctx.chat.id, (await ctx.chatRecord())?.notifications ?? DEFAULT_SETTINGS);
        const markup = await keyboard(ctx, ctx.chat.id, settings);
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "settings-title"), { ...HTML, reply_markup: markup }));
      },
    );

  feature.callbackQuery(settingsData.filter, logHandle("callback-settings"), async (ctx) => {
    const data = settingsData.unpack(ctx.callbackQuery.data);
    if (!data || !isKind(data.kind) || (data.value !== "on" && data.value !== "off")) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const enabled = data.value === "on";
    const before = (await ctx.chatRecord())?.notifications ?? DEFAULT_SETTINGS;
    await ctx.answerCallbackQuery({ text: ctx.t(`settings-${data.kind}-${enabled ? "enabled" : "disabled"}`) });
    // A second tap on the same (stale) button changes nothing: no write, no edit.
    if (before[data.kind] === enabled) return;
    const settings = await withOptIns(ctx.chat.id, await deps.chats.setNotifications(ctx.chat.id, { [data.kind]: enabled }));
    ctx.logger.info({ kind: data.kind, enabled }, "notification setting changed");
    const markup = await keyboard(ctx, ctx.chat.id, settings);
    await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "settings-title"), { ...HTML, reply_markup: markup }));
  });

  return { composer, routes: { commands: ["settings"], callbacks: [menuData, settingsData, timeZoneData] } };
}
