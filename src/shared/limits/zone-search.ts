/**
 * Finding a time zone without knowing its IANA name: by the city a user types ("berlin", "new york",
 * "Москва", "上海", or the start of a name: "novo"), and by the UTC offset clocks show now (the
 * /settings picker's grid). Every zone comes from `Intl.supportedValuesOf("timeZone")`, under the
 * name the time-zone database uses today.
 */
import { zoneOffsetMs } from "./spend-window.js";
import { ZONE_CITIES } from "./zone-cities.js";
import { parseTimeZoneInput, zoneKey, zoneOfOffset } from "./zone-input.js";

/**
 * Names the ICU of Node 20 still lists under their former spelling. Shown and stored under the current
 * one, which `Intl` accepts as well (checked when the list is built, so an older ICU keeps the old name).
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Mendoza": "America/Argentina/Mendoza",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

function acceptedByIntl(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone under the name the time-zone database uses today ("Asia/Calcutta" -> "Asia/Kolkata"). */
function currentZoneName(zone: string): string {
  const current = CURRENT_NAMES[zone];
  return current !== undefined && acceptedByIntl(current) ? current : zone;
}

/** "America/Argentina/Buenos_Aires" -> "Buenos Aires": the place a zone is named after. */
export function cityOfZone(zone: string): string {
  return zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " ");
}

interface ListedZone {
  zone: string;
  /** Normalized city words it is found by: its current city and, for a renamed zone, the former one. */
  keys: string[];
}

let listed: ListedZone[] | undefined;

/** Every city zone Intl knows, each once, under its current name. */
function listedZones(): ListedZone[] {
  if (!listed) {
    listed = Intl.supportedValuesOf("timeZone")
      .filter((zone) => zone.includes("/") && !zone.startsWith("Etc/"))
      .map((zone) => {
        const current = currentZoneName(zone);
        return { zone: current, keys: [...new Set([zoneKey(cityOfZone(current)), zoneKey(cityOfZone(zone))])] };
      });
  }
  return listed;
}

/** The zones of the table of city names: the places most users live in, listed first wherever zones are listed. */
const MAJOR_ZONES: ReadonlySet<string> = new Set(Object.values(ZONE_CITIES));

/** Major cities first, then by the city's name. */
function byImportance(a: string, b: string): number {
  const major = Number(MAJOR_ZONES.has(b)) - Number(MAJOR_ZONES.has(a));
  return major !== 0 ? major : cityOfZone(a).localeCompare(cityOfZone(b), "en");
}

/** Han characters carry no spaces between words: any part of a Chinese name is a match. */
const HAN = /\p{Script=Han}/u;

/** Whether the typed start of a name begins a word of `name` ("york" in "new york", "novo" in "novosibirsk"). */
function startsAWord(name: string, typed: string): boolean {
  if (HAN.test(typed)) return name.includes(typed);
  return name.startsWith(typed) || name.includes(` ${typed}`);
}

/** The shortest start of a name searched for: one letter would match half the world. */
const MIN_TYPED_LETTERS = 2;

export type ZoneSearch =
  | { kind: "one"; zone: string }
  /** Every zone a part of a name matched, major cities first. */
  | { kind: "some"; zones: string[] }
  | { kind: "none"; reason: "unknown" | "uneven_offset" };

/**
 * What a typed name means. Read first as `/settings` always read it (`parseTimeZoneInput`: an offset, an
 * IANA name, a city of the table or of Intl, written in full), so that a typed zone is one zone; then as
 * the start of city names, from the table (English, Russian, Chinese) and from Intl's cities, ignoring
 * case, spaces, "-" and "_".
 */
export function searchTimeZones(text: string): ZoneSearch {
  const exact = parseTimeZoneInput(text);
  if (exact.ok) return { kind: "one", zone: currentZoneName(exact.zone) };
  if (exact.reason === "uneven_offset") return { kind: "none", reason: "uneven_offset" };
  const typed = zoneKey(text);
  if (typed.length < MIN_TYPED_LETTERS || typed.includes("/")) return { kind: "none", reason: "unknown" };
  const named = listedZones().filter((z) => z.keys.includes(typed));
  if (named.length === 1) return { kind: "one", zone: named[0]!.zone };
  const found = new Set<string>();
  for (const [name, zone] of Object.entries(ZONE_CITIES)) if (startsAWord(name, typed)) found.add(zone);
  for (const z of listedZones()) if (z.keys.some((key) => startsAWord(key, typed))) found.add(z.zone);
  return found.size === 0 ? { kind: "none", reason: "unknown" } : { kind: "some", zones: [...found].sort(byImportance) };
}

/** Offsets are read at most this often: clocks change on the hour or the half hour, never in between. */
const OFFSETS_BUCKET_MS = 15 * 60_000;

let offsetsAt: { bucket: number; zones: Map<number, string[]> } | undefined;

/** The city zones by their offset at `nowMs` (minutes east of UTC), each list major cities first. */
function zonesByOffset(nowMs: number): Map<number, string[]> {
  const bucket = Math.floor(nowMs / OFFSETS_BUCKET_MS);
  if (offsetsAt?.bucket !== bucket) {
    const zones = new Map<number, string[]>();
    for (const { zone } of listedZones()) {
      const minutes = Math.round(zoneOffsetMs(nowMs, zone) / 60_000);
      const list = zones.get(minutes);
      if (list) list.push(zone);
      else zones.set(minutes, [zone]);
    }
    for (const list of zones.values()) list.sort(byImportance);
    offsetsAt = { bucket, zones };
  }
  return offsetsAt.zones;
}

/** The whole-hour offsets, all of which have a fixed zone (Etc/GMT+12 … Etc/GMT-14). */
const WHOLE_HOURS = Array.from({ length: 27 }, (_, i) => (i - 12) * 60);

/** Every offset a clock shows at `nowMs`: each whole hour from UTC−12 to UTC+14, and the half and quarter hours some zone keeps now. */
export function offsetsNow(nowMs: number): number[] {
  return [...new Set([...WHOLE_HOURS, ...zonesByOffset(nowMs).keys()])].filter((m) => m >= -12 * 60 && m <= 14 * 60).sort((a, b) => a - b);
}

/**
 * The zones whose clocks show `minutes` past UTC at `nowMs`, major cities first; for a whole hour, then
 * the fixed offset itself ("Etc/GMT-5", "UTC"), which never changes for summer time.
 */
export function zonesAtOffset(minutes: number, nowMs: number): string[] {
  const cities = zonesByOffset(nowMs).get(minutes) ?? [];
  const fixed = minutes % 60 === 0 ? zoneOfOffset(minutes) : undefined;
  return fixed?.ok ? [...cities, fixed.zone] : cities;
}
