import type { InlineKeyboardButton } from "grammy/types";
import { languageZone, type ChatZone } from "../../shared/limits/chat-zone.js";
import { packZoneOffer, presetIndexOf, type ZoneOfferTarget } from "../callback-data/time-zone.js";
import type { Translator } from "../helpers/record-text.js";
import { utcOffsetText } from "../../shared/limits/zone-input.js";

/**
 * The one-tap offer under a message that shows times, while the chat has picked no zone (its times
 * are in UTC and say so): the zone of the chat's language ("🕒 Moscow time (UTC+3)") and the other
 * choices, or, for a language spoken everywhere, only the choices. Nothing once a zone is picked,
 * and nothing in groups (the zone menu is a private chat's). Both buttons name the message they are
 * under (`target`), so a zone picked through either draws that message again in the zone.
 */
export function zoneOfferRow(tr: Translator, locale: string, chatId: number, zone: ChatZone, nowMs: number, target: ZoneOfferTarget): InlineKeyboardButton[] {
  if (zone.chosen || chatId < 0) return [];
  const offered = languageZone(locale);
  const n = offered === undefined ? undefined : presetIndexOf(offered);
  const menu = { text: tr.t(n === undefined ? "time-zone-offer-pick" : "time-zone-offer-other"), callback_data: packZoneOffer("menu", target) };
  if (offered === undefined || n === undefined) return [menu];
  return [{ text: tr.t("time-zone-offer", zoneOfferVars(offered, nowMs)), callback_data: packZoneOffer(n, target) }, menu];
}

/** The offered zone as the offer's texts name it: a city word of the language for the language zones, else the IANA name. */
export function zoneOfferVars(zone: string, nowMs: number): { place: string; zone: string; offset: string } {
  const place = zone === "Europe/Moscow" ? "moscow" : zone === "Asia/Shanghai" ? "shanghai" : "other";
  return { place, zone, offset: utcOffsetText(zone, nowMs) };
}
