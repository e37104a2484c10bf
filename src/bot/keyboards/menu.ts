import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { connectData } from "../callback-data/connect.js";
import { balanceRefreshData, homeData, menuData, orderTierData, type MenuAction } from "../callback-data/menu.js";
import type { Pricing } from "../../platform/service/schemas.js";
import type { Links } from "../helpers/links.js";
import type { Translator } from "../helpers/record-text.js";
import { sortedTiers, tierLabel } from "../helpers/tiers.js";
import { serviceLinkButtons } from "./links.js";

const menuButton = (tr: Translator, action: MenuAction) => InlineKeyboard.text(tr.t(`buttons-menu-${action}`), menuData.pack({ action }));

type Button = ReturnType<typeof menuButton>;

function pairs(buttons: Button[]): Button[][] {
  const rows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += 2) rows.push(buttons.slice(i, i + 2));
  return rows;
}

/** Two actions per row, then the dashboard and support links when configured. */
function grid(tr: Translator, links: Links, actions: Button[], extra: InlineKeyboardButton[][] = []): InlineKeyboard {
  const rows = [...pairs(actions), ...extra];
  const external = serviceLinkButtons(tr, links, ["dashboard", "support"]);
  return InlineKeyboard.from(external.length > 0 ? [...rows, external] : rows);
}

/**
 * The home card of a linked chat: the everyday actions first (Send USDT where the bot can give signing
 * links, Keep charged where plans run), then the rest.
 */
export function createLinkedMenuKeyboard(
  tr: Translator,
  links: Links,
  offers: { send: boolean; keep: boolean; historyApp?: string | undefined },
): InlineKeyboard {
  const actions: MenuAction[] = [
    "order",
    ...(offers.send ? (["send"] as const) : []),
    "orders",
    ...(offers.keep ? (["keep"] as const) : []),
    "balance",
    "topup",
    "prices",
    "broadcast",
    "settings",
    "help",
  ];
  // The ledger reads better as the app's table: under the actions, above the service's links.
  const app = offers.historyApp === undefined ? [] : [[InlineKeyboard.webApp(tr.t("mini-app-open-history"), offers.historyApp)]];
  return grid(
    tr,
    links,
    actions.map((a) => menuButton(tr, a)),
    app,
  );
}

/** /start of a chat without an account: connect one, or look around first. */
export function createWelcomeMenuKeyboard(tr: Translator, links: Links): InlineKeyboard {
  const connect = InlineKeyboard.text(tr.t("account-connect-button"), connectData.pack({ then: "start" }));
  return grid(tr, links, [connect, menuButton(tr, "prices"), menuButton(tr, "language"), menuButton(tr, "help")]);
}

/** Under /balance: read it again (in place), order, top up. */
export function createBalanceKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("buttons-balance-refresh"), balanceRefreshData.pack({ action: "refresh" }))
    .row()
    .add(menuButton(tr, "order"), menuButton(tr, "topup"));
}

/** Under /prices in a private chat: one "Order 1h" per tier, two per row. */
export function createPricesKeyboard(tr: Translator, pricing: Pricing): InlineKeyboard {
  const buttons = sortedTiers(pricing).map((tier) =>
    InlineKeyboard.text(tr.t("buttons-order-tier", { tier: tierLabel(tr, tier) }), orderTierData.pack({ durationSec: tier.durationSec })),
  );
  return InlineKeyboard.from(pairs(buttons));
}

/** ◀️ Home, under every screen the home card leads to. */
export function homeButton(tr: Translator) {
  return InlineKeyboard.text(tr.t("buttons-home"), homeData.pack({}));
}

/** The screen's buttons with ◀️ Home as their last row (once: a screen that has it keeps it where it is). */
export function withHomeRow(tr: Translator, keyboard: InlineKeyboard | undefined): InlineKeyboard {
  const rows = keyboard?.inline_keyboard ?? [];
  const home = homeData.pack({});
  if (rows.some((row) => row.some((b) => "callback_data" in b && b.callback_data === home))) return keyboard!;
  return InlineKeyboard.from([...rows, [homeButton(tr)]]);
}
