import { createCallbackData } from "./create-callback-data.js";

/**
 * The chat's time zone: `tz:m` shows the choices, `tz:o` asks to type a zone, `tz:<n>` picks
 * `COMMON_TIME_ZONES[n]` (the target state, so a double tap is harmless), and `tz:s<n>` picks it
 * from the offer under a message that shows times (the offer's buttons then leave that message).
 */
export const timeZoneData = createCallbackData("tz", ["action"]);

/**
 * The offer's buttons, naming the message they sit under so a pick can draw that message again in the
 * zone just picked: `tzs:<n>:<on>:<ref>` with on `n` (a fulfilled order's notice, ref its id and, after a
 * dot, its card's message id), `p` (the same notice told to another chat of the account), `r` (the order's
 * expiry reminder) or `l` (an /orders page, ref its filter and page: `a0`). `<n>` is a preset, or `m` for
 * the menu of every choice, sent replying to that message; the menu's presets name the same message with
 * `<on>` in capitals. `tz:s<n>` buttons sent before it still set the zone.
 */
export const zoneOfferData = createCallbackData("tzs", ["zone", "on", "ref"]);

/** What an offer sits under: what a pick draws again (and a notice's card, above it). */
export type ZoneOfferTarget =
  | { on: "notice"; orderId: string; placedElsewhere: boolean; cardId?: number }
  | { on: "reminder"; orderId: string }
  | { on: "orders"; filter: string; page: number };

/** What an offer's button does: pick a preset, or open the menu (`"menu"`); `fromMenu` when it is one of that menu's presets. */
export interface ZoneOfferPress {
  /** A preset's IANA name, or `"menu"`. */
  pick: string;
  target: ZoneOfferTarget;
  fromMenu: boolean;
}

export function packZoneOffer(n: number | "menu", target: ZoneOfferTarget, fromMenu = false): string {
  const zone = n === "menu" ? "m" : n;
  const cased = (on: string) => (fromMenu ? on.toUpperCase() : on);
  if (target.on === "orders") return zoneOfferData.pack({ zone, on: cased("l"), ref: `${target.filter}${target.page}` });
  if (target.on === "reminder") return zoneOfferData.pack({ zone, on: cased("r"), ref: target.orderId });
  const card = target.cardId === undefined ? "" : `.${target.cardId}`;
  return zoneOfferData.pack({ zone, on: cased(target.placedElsewhere ? "p" : "n"), ref: `${target.orderId}${card}` });
}

/** What an offer's button does and the message it names; undefined for a forged or unknown one. */
export function unpackZoneOffer(data: string | undefined): ZoneOfferPress | undefined {
  const d = zoneOfferData.unpack(data);
  if (d === undefined) return undefined;
  const pick = d.zone === "m" ? "menu" : commonTimeZoneOf(d.zone);
  const fromMenu = d.on !== d.on.toLowerCase();
  if (pick === undefined || (fromMenu && pick === "menu")) return undefined;
  const on = d.on.toLowerCase();
  if (on === "l") {
    const m = /^([a-z])(\d{1,4})$/.exec(d.ref);
    return m ? { pick, fromMenu, target: { on: "orders", filter: m[1]!, page: Number(m[2]) } } : undefined;
  }
  const m = /^([0-9a-f]{24})(?:\.(\d{1,10}))?$/.exec(d.ref);
  if (m === null) return undefined;
  const orderId = m[1]!;
  if (on === "r" && m[2] === undefined) return { pick, fromMenu, target: { on: "reminder", orderId } };
  if (on === "n" || on === "p") {
    const cardId = m[2] === undefined ? {} : { cardId: Number(m[2]) };
    return { pick, fromMenu, target: { on: "notice", orderId, placedElsewhere: on === "p", ...cardId } };
  }
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
