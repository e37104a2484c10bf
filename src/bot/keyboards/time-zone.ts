import { InlineKeyboard } from "grammy";
import { COMMON_TIME_ZONES, timeZoneData } from "../callback-data/time-zone.js";
import type { Translator } from "../helpers/record-text.js";
import { zoneName } from "../../core/limits/zone-input.js";

/** The common zones two a row (the chat's own marked), then "type another". */
export function createTimeZoneKeyboard(tr: Translator, current: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  COMMON_TIME_ZONES.forEach((zone, n) => {
    kb.text(zone === current ? tr.t("time-zone-chosen", { zone }) : zone, timeZoneData.pack({ action: n }));
    if (n % 2 === 1) kb.row();
  });
  return kb.row().text(tr.t("time-zone-other-button"), timeZoneData.pack({ action: "o" }));
}

/** The /settings entry that opens the choices. */
export function addTimeZoneButton(kb: InlineKeyboard, tr: Translator, current: string): InlineKeyboard {
  return kb.row().text(tr.t("time-zone-settings-button", { zone: zoneName(current) }), timeZoneData.pack({ action: "m" }));
}
