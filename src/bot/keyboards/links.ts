import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import type { Links } from "../helpers/links.js";
import type { Translator } from "../helpers/record-text.js";
import { linksOfText, type ServiceLink } from "../helpers/service-links.js";

const LABELS: Readonly<Record<ServiceLink, string>> = { dashboard: "buttons-dashboard", support: "buttons-support" };

/** URL buttons to the dashboard and/or support, only for those whose URL is configured. */
export function serviceLinkButtons(tr: Translator, links: Pick<Links, ServiceLink>, which: readonly ServiceLink[]): InlineKeyboardButton.UrlButton[] {
  return which.flatMap((link) => {
    const url = links[link];
    return url === undefined ? [] : [{ text: tr.t(LABELS[link]), url }];
  });
}

/**
 * The reply_markup for a text that sends the user to the dashboard or to
 * support (helpers/service-links.ts): `base`'s buttons with one more row of
 * links; nothing at all when no URL is configured and `base` is absent.
 */
export function textLinksMarkup(
  ctx: Translator & { links: Pick<Links, ServiceLink> },
  key: string | readonly string[],
  base?: InlineKeyboard,
): { reply_markup: InlineKeyboard } | Record<string, never> {
  const buttons = serviceLinkButtons(ctx, ctx.links, linksOfText(key));
  if (buttons.length === 0) return base ? { reply_markup: base } : {};
  const kb = base ?? new InlineKeyboard();
  if (kb.inline_keyboard.some((row) => row.length > 0)) kb.row();
  for (const button of buttons) kb.add(button);
  return { reply_markup: kb };
}

/**
 * The same for a message the push queue sends (stored as JSON): plain rows.
 * Without `links` (a notifier built without them) only `base` is kept.
 */
export function pushLinksMarkup(
  tr: Translator,
  links: Links | undefined,
  key: string | readonly string[],
  base?: InlineKeyboard,
): { reply_markup: { inline_keyboard: InlineKeyboardButton[][] } } | Record<string, never> {
  const markup = links ? textLinksMarkup({ t: (k, vars) => tr.t(k, vars), links }, key, base).reply_markup : base;
  return markup ? { reply_markup: { inline_keyboard: markup.inline_keyboard } } : {};
}
