import { readTrxAmount } from "../../shared/money.js";
import { parseDurationText } from "../../shared/orders/duration-input.js";
import { parseOneShotOrder, type OneShotParse, type ReceiverResolver } from "../../shared/orders/one-shot.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { normalizeTimeZone, parseActiveHours, zoneOffsetMs, type ActiveHours } from "./keep-plan.js";

/**
 * `/keep <address|label> <amount> <duration> [until=…] [cap=…] [hours=…] [tz=…]`:
 * the order part is read by the /order one-shot parser; the options are
 * `name=value` words anywhere after it.
 *   until= a duration from now (`2h`, `3 days` written `3d`), a local time
 *          today or tomorrow (`18:00`) or a local date and time (`2026-12-01T18:00`)
 *   cap=   TRX per local day for this plan (`5`, `2.5`; `2,5` where the locale writes decimals with a comma)
 *   hours= active hours, local (`09:00-18:00`, `22-6` across midnight)
 *   tz=    IANA zone (`Europe/Berlin`) or UTC offset (`+03:00`); default UTC
 */

export interface KeepOptions {
  endsAtMs?: number;
  dailyCapSun?: bigint;
  activeHours?: ActiveHours;
  timeZone: string;
}

export type KeepParse =
  | { ok: true; address: string; amount: number; durationSec: number; options: KeepOptions }
  | Exclude<OneShotParse, { ok: true }>
  | { ok: false; reason: "no_duration" }
  | { ok: false; reason: "bad_option"; option: "until" | "cap" | "hours" | "tz" | "unknown"; value: string };

const OPTION = /^([a-z]+)=(.*)$/i;

/** `18:00` (next occurrence), `2026-12-01T18:00` or `2026-12-01 18:00` in the zone; or a duration from now. */
export function parseUntil(text: string, timeZone: string, nowMs: number): number | undefined {
  const clock = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (clock) {
    const [h, m] = [Number(clock[1]), Number(clock[2])];
    if (h > 23 || m > 59) return undefined;
    const offset = zoneOffsetMs(timeZone, nowMs);
    const wall = nowMs + offset;
    let at = Math.floor(wall / 86_400_000) * 86_400_000 + (h * 60 + m) * 60_000;
    if (at <= wall) at += 86_400_000;
    return at - offset;
  }
  const dated = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})$/.exec(text);
  if (dated) {
    const wall = Date.UTC(Number(dated[1]), Number(dated[2]) - 1, Number(dated[3]), Number(dated[4]), Number(dated[5]));
    if (Number.isNaN(wall)) return undefined;
    const at = wall - zoneOffsetMs(timeZone, wall);
    return at > nowMs ? at : undefined;
  }
  const seconds = parseDurationText(text);
  return seconds === undefined ? undefined : nowMs + seconds * 1000;
}

export type OptionsParse = { ok: true; options: KeepOptions; rest: string[] } | Extract<KeepParse, { reason: "bad_option" }>;

/**
 * The `name=value` words of a command or a guided answer; the other words come back in `rest`.
 * `locale` reads the cap's amount; without `tz=` the plan counts its days and hours in `defaultZone`, the chat's own zone.
 */
export function parseKeepOptions(text: string, nowMs: number, locale?: string, defaultZone = "UTC"): OptionsParse {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const raw = new Map<string, string>();
  const rest: string[] = [];
  for (const word of words) {
    const m = OPTION.exec(word);
    if (m) raw.set(m[1]!.toLowerCase(), m[2]!);
    else rest.push(word);
  }
  for (const name of raw.keys()) {
    if (!["until", "cap", "hours", "tz"].includes(name)) return { ok: false, reason: "bad_option", option: "unknown", value: name };
  }
  const tzText = raw.get("tz");
  const timeZone = tzText === undefined ? defaultZone : normalizeTimeZone(tzText);
  if (timeZone === undefined) return { ok: false, reason: "bad_option", option: "tz", value: tzText ?? "" };
  const options: KeepOptions = { timeZone };
  const until = raw.get("until");
  if (until !== undefined) {
    const endsAtMs = parseUntil(until, timeZone, nowMs);
    if (endsAtMs === undefined) return { ok: false, reason: "bad_option", option: "until", value: until };
    options.endsAtMs = endsAtMs;
  }
  const cap = raw.get("cap");
  if (cap !== undefined) {
    const read = readTrxAmount(cap, locale);
    if (!read.ok || read.sun <= 0n) return { ok: false, reason: "bad_option", option: "cap", value: cap };
    options.dailyCapSun = read.sun;
  }
  const hours = raw.get("hours");
  if (hours !== undefined) {
    const activeHours = parseActiveHours(hours);
    if (activeHours === undefined) return { ok: false, reason: "bad_option", option: "hours", value: hours };
    options.activeHours = activeHours;
  }
  return { ok: true, options, rest };
}

export async function parseKeepCommand(
  text: string,
  pricing: Pricing,
  resolveReceiver: ReceiverResolver,
  nowMs: number,
  locale?: string,
  defaultZone?: string,
): Promise<KeepParse> {
  const read = parseKeepOptions(text, nowMs, locale, defaultZone);
  if (!read.ok) return read;
  const order = await parseOneShotOrder(read.rest.join(" "), pricing, resolveReceiver, locale);
  if (!order.ok) return order;
  if (order.durationSec === undefined) return { ok: false, reason: "no_duration" };
  return { ok: true, address: order.address, amount: order.amount, durationSec: order.durationSec, options: read.options };
}
