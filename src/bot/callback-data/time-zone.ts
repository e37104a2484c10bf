import { createCallbackData } from "./create-callback-data.js";

/**
 * The chat's time zone: `tz:m` shows the choices, `tz:o` asks to type a zone, `tz:<n>` picks
 * `COMMON_TIME_ZONES[n]` (the target state, so a double tap is harmless), and `tz:s<n>` picks it
 * from the offer under a message that shows times (the offer's buttons then leave that message).
 */
export const timeZoneData = createCallbackData("tz", ["action"]);

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

/** The offer button's action for a preset zone; undefined for a zone that is no preset. */
export function offerActionOf(zone: string): string | undefined {
  const n = (COMMON_TIME_ZONES as readonly string[]).indexOf(zone);
  return n < 0 ? undefined : `s${n}`;
}
