import type { InlineKeyboardMarkup } from "grammy/types";
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import {
  COMMON_TIME_ZONES,
  packPickerRef,
  packZoneOffer,
  timeZoneData,
  zoneOfferData,
  zonePickerData,
  type PickerRef,
  type ZoneOfferTarget,
} from "../../bot/callback-data/time-zone.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { offsetText, zoneLabel, zoneName } from "../../shared/limits/zone-input.js";
import { cityOfZone } from "../../shared/limits/zone-search.js";

const pickerButton = (action: string, ref: PickerRef, value: string | number = 0, page = 0) =>
  zonePickerData.pack({ action, value, page, ref: packPickerRef(ref) });

/**
 * The choices: the common zones two a row (the chat's own marked), then 🔎 a typed city and 🕐 the UTC
 * offsets; opened on the /settings card (`withBack`), they end with ◀️ Back to it. Opened from an offer
 * (`offer`), each common zone names the message the offer sat under, so picking it draws that message again.
 */
export function createTimeZoneKeyboard(tr: Translator, current: string, withBack = false, offer?: ZoneOfferTarget): InlineKeyboard {
  const kb = new InlineKeyboard();
  COMMON_TIME_ZONES.forEach((zone, n) => {
    kb.text(
      zone === current ? tr.t("time-zone-chosen", { zone }) : zone,
      offer === undefined ? timeZoneData.pack({ action: n }) : packZoneOffer(n, offer, true),
    );
    if (n % 2 === 1 && n < COMMON_TIME_ZONES.length - 1) kb.row();
  });
  const ref: PickerRef = { onSettings: withBack };
  kb.row().text(tr.t("time-zone-city-button"), pickerButton("c", ref)).text(tr.t("time-zone-offsets-button"), pickerButton("g", ref));
  return withBack ? kb.row().text(tr.t("buttons-back"), TIME_ZONE_BACK) : kb;
}

/** Four offsets a row, west to east, the chat's own marked; ◀️ Back to the first screen. */
export function createOffsetGridKeyboard(tr: Translator, offsets: readonly number[], currentOffset: number, ref: PickerRef): InlineKeyboard {
  const kb = new InlineKeyboard();
  offsets.forEach((minutes, i) => {
    const label = offsetText(minutes);
    kb.text(minutes === currentOffset ? tr.t("time-zone-chosen", { zone: label }) : label, pickerButton("l", ref, minutes));
    if (i % 4 === 3 && i < offsets.length - 1) kb.row();
  });
  return kb.row().text(tr.t("buttons-back"), pickerButton("m", ref));
}

/** How many zones of one offset a page shows: six rows of two. */
export const ZONES_PER_PAGE = 12;

/** A zone as its button names it: its city ("Kolkata"), or the fixed offset ("UTC+5, no summer time"). */
function zoneButtonLabel(tr: Translator, zone: string): string {
  const fixed = zoneName(zone);
  return fixed !== zone || zone === "UTC" ? tr.t("time-zone-fixed-button", { offset: fixed }) : cityOfZone(zone);
}

/** One page of the zones at an offset, two a row (the chat's own marked), ⬅️ ➡️ between pages, ◀️ Back to the offsets. */
export function createOffsetZonesKeyboard(
  tr: Translator,
  minutes: number,
  zones: readonly string[],
  page: number,
  current: string,
  ref: PickerRef,
): InlineKeyboard {
  const kb = new InlineKeyboard();
  const shown = zones.slice(page * ZONES_PER_PAGE, (page + 1) * ZONES_PER_PAGE);
  shown.forEach((zone, i) => {
    const label = zoneButtonLabel(tr, zone);
    kb.text(zone === current ? tr.t("time-zone-chosen", { zone: label }) : label, pickerButton("z", ref, zone));
    if (i % 2 === 1 && i < shown.length - 1) kb.row();
  });
  const previous = page > 0;
  const next = (page + 1) * ZONES_PER_PAGE < zones.length;
  if (previous || next) kb.row();
  if (previous) kb.text(tr.t("time-zone-page-previous"), pickerButton("l", ref, minutes, page - 1));
  if (next) kb.text(tr.t("time-zone-page-next"), pickerButton("l", ref, minutes, page + 1));
  return kb.row().text(tr.t("buttons-back"), pickerButton("g", ref));
}

/** How many zones a typed part of a name offers as buttons; the answer says how many more matched. */
export const ZONE_MATCHES_SHOWN = 8;

/** Under the answer to a typed name that matched several zones: one per row, with its offset now; then 🕐 the offsets. */
export function createZoneMatchesKeyboard(tr: Translator, zones: readonly string[], nowMs: number, ref: PickerRef): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const zone of zones.slice(0, ZONE_MATCHES_SHOWN)) kb.text(zoneLabel(zone, nowMs), pickerButton("z", ref, zone)).row();
  return kb.text(tr.t("time-zone-offsets-button"), pickerButton("g", ref));
}

/** Under the answer to a name no zone has: type again, or pick by offset. */
export function createZoneNotFoundKeyboard(tr: Translator, ref: PickerRef): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("time-zone-retry-button"), pickerButton("c", ref)).text(tr.t("time-zone-offsets-button"), pickerButton("g", ref));
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

const isOfferButton = (b: InlineKeyboardButton): boolean =>
  "callback_data" in b && (timeZoneData.filter.test(b.callback_data) || zoneOfferData.filter.test(b.callback_data));

/** `rows` with the offer's buttons left out (after a tap on one of them). */
export function withoutZoneOffer(rows: readonly (readonly InlineKeyboardButton[])[]): InlineKeyboardButton[][] {
  return rows.map((row) => row.filter((b) => !isOfferButton(b))).filter((row) => row.length > 0);
}
