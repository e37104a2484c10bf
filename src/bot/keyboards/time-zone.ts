import type { InlineKeyboardMarkup } from "grammy/types";
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { languageZone, type ChatZone } from "../../core/limits/chat-zone.js";
import { COMMON_TIME_ZONES, packZoneOffer, presetIndexOf, timeZoneData, zoneOfferData, type ZoneOfferTarget } from "../callback-data/time-zone.js";
import type { Translator } from "../helpers/record-text.js";
import { utcOffsetText, zoneName } from "../../core/limits/zone-input.js";

/** The common zones two a row (the chat's own marked), then "type another". */
/** The choices; opened on the /settings card (`withBack`), they end with ◀️ Back to it. */
export function createTimeZoneKeyboard(tr: Translator, current: string, withBack = false): InlineKeyboard {
  const kb = new InlineKeyboard();
  COMMON_TIME_ZONES.forEach((zone, n) => {
    kb.text(zone === current ? tr.t("time-zone-chosen", { zone }) : zone, timeZoneData.pack({ action: n }));
    if (n % 2 === 1) kb.row();
  });
  kb.row().text(tr.t("time-zone-other-button"), timeZoneData.pack({ action: "o" }));
  return withBack ? kb.row().text(tr.t("buttons-back"), TIME_ZONE_BACK) : kb;
}

/** ◀️ Back from the choices to the /settings card they were opened on (the settings feature draws it). */
export const TIME_ZONE_BACK = timeZoneData.pack({ action: "b" });
/** The /settings card's entry: the card itself becomes the choices. */
const TIME_ZONE_FROM_SETTINGS = timeZoneData.pack({ action: "ms" });

/** Whether a pressed message carries ◀️ Back to /settings: its redraw keeps it. */
export const hasTimeZoneBack = (markup: InlineKeyboardMarkup | undefined): boolean =>
  markup?.inline_keyboard.some((row) => row.some((b) => "callback_data" in b && b.callback_data === TIME_ZONE_BACK)) ?? false;

/** The /settings entry that opens the choices. */
export function addTimeZoneButton(kb: InlineKeyboard, tr: Translator, current: string): InlineKeyboard {
  return kb.row().text(tr.t("time-zone-settings-button", { zone: zoneName(current) }), TIME_ZONE_FROM_SETTINGS);
}

/**
 * The one-tap offer under a message that shows times, while the chat has picked no zone (its times
 * are in UTC and say so): the zone of the chat's language ("🕒 Moscow time (UTC+3)") and the other
 * choices, or, for a language spoken everywhere, only the choices. Nothing once a zone is picked,
 * and nothing in groups (the zone menu is a private chat's). The zone's button names the message it
 * is under (`target`), so a tap draws that message again in the zone.
 */
export function zoneOfferRow(tr: Translator, locale: string, chatId: number, zone: ChatZone, nowMs: number, target: ZoneOfferTarget): InlineKeyboardButton[] {
  if (zone.chosen || chatId < 0) return [];
  const offered = languageZone(locale);
  const n = offered === undefined ? undefined : presetIndexOf(offered);
  const menu = { text: tr.t(n === undefined ? "time-zone-offer-pick" : "time-zone-offer-other"), callback_data: timeZoneData.pack({ action: "m" }) };
  if (offered === undefined || n === undefined) return [menu];
  return [{ text: tr.t("time-zone-offer", zoneOfferVars(offered, nowMs)), callback_data: packZoneOffer(n, target) }, menu];
}

const isOfferButton = (b: InlineKeyboardButton): boolean =>
  "callback_data" in b && (timeZoneData.filter.test(b.callback_data) || zoneOfferData.filter.test(b.callback_data));

/** `rows` with the offer's buttons left out (after a tap on one of them). */
export function withoutZoneOffer(rows: readonly (readonly InlineKeyboardButton[])[]): InlineKeyboardButton[][] {
  return rows.map((row) => row.filter((b) => !isOfferButton(b))).filter((row) => row.length > 0);
}

/** The offered zone as the offer's texts name it: a city word of the language for the language zones, else the IANA name. */
export function zoneOfferVars(zone: string, nowMs: number): { place: string; zone: string; offset: string } {
  const place = zone === "Europe/Moscow" ? "moscow" : zone === "Asia/Shanghai" ? "shanghai" : "other";
  return { place, zone, offset: utcOffsetText(zone, nowMs) };
}
