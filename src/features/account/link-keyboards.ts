import { InlineKeyboard } from "grammy";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { connectData } from "../../bot/callback-data/connect.js";
import { linkData } from "../../bot/callback-data/link.js";
import { menuData } from "../../bot/callback-data/menu.js";
import type { ConversationContext } from "../../bot/context.js";
import { homeButton } from "../../bot/keyboards/menu.js";
import type { KeyCheck } from "../../shared/chats/check-key.js";

type Translator = Pick<ConversationContext, "t">;

export function createLinkCancelKeyboard(ctx: Translator, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("link-cancel-button"), cancelData.pack({ flow: "link", instance: flow }));
}

/** The webhook secret is optional: Skip first, Cancel last. */
export function createLinkSecretKeyboard(ctx: Translator, flow: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(ctx.t("link-skip-button"), linkData.pack({ action: "skip", instance: flow }))
    .text(ctx.t("link-cancel-button"), cancelData.pack({ flow: "link", instance: flow }));
}

/** Under "connected": what a new account is for (with a wallet: order, top up), and the home card. */
export function createLinkedKeyboard(ctx: Translator, check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }>): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (check.kind === "ok") {
    keyboard
      .text(ctx.t("buttons-menu-order"), menuData.pack({ action: "order" }))
      .text(ctx.t("buttons-menu-topup"), menuData.pack({ action: "topup" }))
      .row();
  }
  return keyboard.add(homeButton(ctx));
}

/** Under a key that was not linked: the flow again, for the key copied anew or the service back. */
export function createLinkAgainKeyboard(ctx: Translator): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("account-connect-button"), connectData.pack({ then: "link" }));
}
