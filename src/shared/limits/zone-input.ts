/**
 * What a user types for a time zone, read into a zone name every `Intl.DateTimeFormat` accepts
 * (Node 20's Intl refuses offset strings such as "+03:00" as a `timeZone`, so an offset becomes an
 * `Etc/GMT∓N` zone, whose sign is inverted by the IANA convention).
 */
import { zoneOffsetMs } from "./spend-window.js";
import { ZONE_CITIES } from "./zone-cities.js";

export type ZoneInput = { ok: true; zone: string } | { ok: false; reason: "unknown" | "uneven_offset" };

/** Offsets that are not whole hours have no `Etc/` zone; these zones keep them all year (no summer time). */
const UNEVEN_OFFSET_ZONES: Readonly<Record<number, string>> = {
  [3 * 60 + 30]: "Asia/Tehran",
  [4 * 60 + 30]: "Asia/Kabul",
  [5 * 60 + 30]: "Asia/Kolkata",
  [5 * 60 + 45]: "Asia/Kathmandu",
  [6 * 60 + 30]: "Asia/Yangon",
  [8 * 60 + 45]: "Australia/Eucla",
  [9 * 60 + 30]: "Australia/Darwin",
  [-(9 * 60 + 30)]: "Pacific/Marquesas",
};

const OFFSET = /^(?:utc|gmt)?\s*(?:([+\-−])\s*(\d{1,2})(?::?(\d{2}))?)?$/i;

/** "UTC+3", "+03:00", "gmt-5", "+0530", "utc" as minutes east of UTC; undefined when the text is no offset. */
export function parseUtcOffset(text: string): number | undefined {
  const t = text.trim();
  if (t === "" || !/^(utc|gmt|[+\-−])/i.test(t)) return undefined;
  const m = OFFSET.exec(t);
  if (!m) return undefined;
  const [, sign, hh, mm = "00"] = m;
  if (sign === undefined || hh === undefined) return 0;
  const hours = Number(hh);
  const minutes = Number(mm);
  if (hours > 14 || minutes > 59) return undefined;
  return (sign === "+" ? 1 : -1) * (hours * 60 + minutes);
}

/** Lower case, "ё" as "е", a trailing Chinese "市" (city) dropped, and "_", "-", "." or runs of spaces as one space. */
export function zoneKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[_\-.\s]+/g, " ")
    .replace(/市$/, "")
    .trim();
}

let lastSegments: Map<string, string> | undefined;

/** "sao paulo" -> "America/Sao_Paulo": the city part of every zone Intl lists, for names the table lacks. */
function zoneOfCityPart(key: string): string | undefined {
  if (!lastSegments) {
    lastSegments = new Map();
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const city = zone.slice(zone.lastIndexOf("/") + 1);
      if (zone.includes("/") && !zone.startsWith("Etc/")) lastSegments.set(zoneKey(city), zone);
    }
  }
  return lastSegments.get(key);
}

function intlZone(text: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The zone for an offset in minutes east of UTC, or why there is none. */
export function zoneOfOffset(minutes: number): ZoneInput {
  if (minutes === 0) return { ok: true, zone: "UTC" };
  if (minutes % 60 !== 0) {
    const zone = UNEVEN_OFFSET_ZONES[minutes];
    return zone === undefined ? { ok: false, reason: "uneven_offset" } : { ok: true, zone };
  }
  const hours = minutes / 60;
  // Etc/GMT+12 is the far west end; Etc/GMT-14 the far east.
  if (hours < -12) return { ok: false, reason: "unknown" };
  return { ok: true, zone: `Etc/GMT${hours > 0 ? "-" : "+"}${Math.abs(hours)}` };
}

/**
 * An IANA name in any case ("europe/moscow"), a city in English, Russian or Chinese ("moscow",
 * "москва", "上海"), or a UTC offset ("UTC+3", "+03:00", "GMT-5", "utc").
 */
export function parseTimeZoneInput(text: string): ZoneInput {
  const t = text.trim();
  if (t === "" || t.length > 64) return { ok: false, reason: "unknown" };
  const offset = parseUtcOffset(t);
  if (offset !== undefined) return zoneOfOffset(offset);
  const key = zoneKey(t);
  const city = ZONE_CITIES[key];
  if (city !== undefined) return { ok: true, zone: city };
  const named = intlZone(t) ?? intlZone(t.replace(/\s+/g, "_"));
  if (named !== undefined) return { ok: true, zone: named };
  const part = zoneOfCityPart(key);
  return part === undefined ? { ok: false, reason: "unknown" } : { ok: true, zone: part };
}

/** "UTC+3", "UTC−5", "UTC+5:30", "UTC": the zone's offset at `atMs`. */
export function utcOffsetText(zone: string, atMs: number): string {
  return offsetText(Math.round(zoneOffsetMs(atMs, zone) / 60_000));
}

/** "UTC+3", "UTC−5", "UTC+5:30", "UTC": an offset in minutes east of UTC. */
export function offsetText(minutes: number): string {
  if (minutes === 0) return "UTC";
  const abs = Math.abs(minutes);
  const mm = abs % 60;
  return `UTC${minutes > 0 ? "+" : "−"}${Math.floor(abs / 60)}${mm === 0 ? "" : `:${String(mm).padStart(2, "0")}`}`;
}

const FIXED = /^Etc\/GMT([+-])(\d{1,2})$/;

/** The zone as people read it: "Etc/GMT-3" is "UTC+3"; any other name stays as it is. */
export function zoneName(zone: string): string {
  const [, sign, hours] = FIXED.exec(zone) ?? [];
  if (sign === undefined || hours === undefined) return zone;
  return hours === "0" ? "UTC" : `UTC${sign === "-" ? "+" : "−"}${hours}`;
}

/** "Europe/Moscow (UTC+3)" (the offset at `atMs`), or just "UTC+3" / "UTC" for a fixed offset. */
export function zoneLabel(zone: string, atMs: number): string {
  const name = zoneName(zone);
  if (name !== zone || zone === "UTC" || zone === "Etc/UTC") return name;
  return `${zone} (${utcOffsetText(zone, atMs)})`;
}
