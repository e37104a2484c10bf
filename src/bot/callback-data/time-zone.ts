import { createCallbackData } from "./create-callback-data.js";

/**
 * The chat's time zone: `tz:m` shows the choices, `tz:o` asks to type a zone, `tz:<n>` picks
 * `COMMON_TIME_ZONES[n]` (the target state, so a double tap is harmless), and `tz:s<n>` picks it
 * from the offer under a message that shows times (the offer's buttons then leave that message).
 */
export const timeZoneData = createCallbackData("tz", ["action"]);

/**
 * The offer's zone button, naming the message it sits under so the tap can draw that message again in
 * the zone just picked: `tzs:<n>:<on>:<ref>` with on `n` (a fulfilled order's notice, ref its id), `p`
 * (the same notice told to another chat of the account), `r` (the order's expiry reminder) or `l` (an
 * /orders page, ref its filter and page: `a0`). `tz:s<n>` buttons sent before it still set the zone.
 */
export const zoneOfferData = createCallbackData("tzs", ["zone", "on", "ref"]);

/** What an offer sits under: what the tap draws again. */
export type ZoneOfferTarget =
  { on: "notice"; orderId: string; placedElsewhere: boolean } | { on: "reminder"; orderId: string } | { on: "orders"; filter: string; page: number };

export function packZoneOffer(n: number, target: ZoneOfferTarget): string {
  if (target.on === "orders") return zoneOfferData.pack({ zone: n, on: "l", ref: `${target.filter}${target.page}` });
  const on = target.on === "reminder" ? "r" : target.placedElsewhere ? "p" : "n";
  return zoneOfferData.pack({ zone: n, on, ref: target.orderId });
}

/** The zone and the message of an offer's button; undefined for a forged or unknown one. */
export function unpackZoneOffer(data: string | undefined): { zone: string; target: ZoneOfferTarget } | undefined {
  const d = zoneOfferData.unpack(data);
  const zone = commonTimeZoneOf(d?.zone);
  if (d === undefined || zone === undefined) return undefined;
  if (d.on === "l") {
    const m = /^([a-z])(\d{1,4})$/.exec(d.ref);
    return m ? { zone, target: { on: "orders", filter: m[1]!, page: Number(m[2]) } } : undefined;
  }
  if (!/^[0-9a-f]{24}$/.test(d.ref)) return undefined;
  if (d.on === "r") return { zone, target: { on: "reminder", orderId: d.ref } };
  if (d.on === "n" || d.on === "p") return { zone, target: { on: "notice", orderId: d.ref, placedElsewhere: d.on === "p" } };
  return undefined;
}

/** The zones offered as buttons; any other IANA name can be typed. */
export const COMMON_TIME_ZONES = [
  "UTC",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Moscow",
  "Asia/Dubai",
  "Asia/Kolkata",
  "Asia/Singapore",
  "Asia/Shanghai",
  "America/New_York",
  "America/Los_Angeles",
] as const;

/** The preset a `tz:<n>` button names; undefined for anything else (a forged or old button). */
export function commonTimeZoneOf(action: string | undefined): string | undefined {
  if (action === undefined || !/^\d{1,2}$/.test(action)) return undefined;
  return COMMON_TIME_ZONES[Number(action)];
}

/** The preset an offer's `tz:s<n>` button names; undefined for anything else. */
export function offeredTimeZoneOf(action: string | undefined): string | undefined {
  return action?.startsWith("s") ? commonTimeZoneOf(action.slice(1)) : undefined;
}

/** The preset's index for the offer's button; undefined for a zone that is no preset. */
export function presetIndexOf(zone: string): number | undefined {
  const n = (COMMON_TIME_ZONES as readonly string[]).indexOf(zone);
  return n < 0 ? undefined : n;
}

/**
 * The picker's other screens, each drawn on the message tapped: `tzp:<action>:<value>:<page>:<ref>`. `g` the
 * grid of UTC offsets; `l` the zones at offset `<value>` (minutes east of UTC, now), page `<page>`; `z` picks
 * zone `<value>` (its IANA name); `m` the picker's first screen again; `c` asks to type a city. `<ref>` says
 * where the picker lives (`packPickerRef`).
 */
export const zonePickerData = createCallbackData("tzp", ["action", "value", "page", "ref"]);

/**
 * Where the picker lives: on the /settings card (its first screen keeps ◀️ Back to the card) or in a message
 * of its own; `cardId` when the tapped message is the answer to a typed city and the picker is that other
 * message (drawn again once a zone is picked, so it shows the zone).
 */
export interface PickerRef {
  onSettings: boolean;
  cardId?: number;
}

/** `s`, `m`, or either followed by the picker's message id. */
export function packPickerRef(ref: PickerRef): string {
  return `${ref.onSettings ? "s" : "m"}${ref.cardId ?? ""}`;
}

export function unpackPickerRef(text: string | undefined): PickerRef | undefined {
  const m = /^([sm])(\d{1,15})?$/.exec(text ?? "");
  if (!m) return undefined;
  return { onSettings: m[1] === "s", ...(m[2] === undefined ? {} : { cardId: Number(m[2]) }) };
}
