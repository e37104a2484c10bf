import type { LimitSettingsStore } from "./limit-settings.js";
import { DEFAULT_TIME_ZONE } from "./spend-window.js";

/**
 * The zone a chat's times are shown in, and whether the chat picked it: until it does, times are in
 * the default (UTC unless the operator set LIMITS_TIME_ZONE) and say so, and the messages that show
 * a time offer the zone of the chat's language as one tap (docs/expiry.md, "Time zones").
 */
export interface ChatZone {
  zone: string;
  chosen: boolean;
}

export interface ChatZones {
  zoneOf(chatId: number): Promise<ChatZone>;
}

export function createChatZones(deps: { settings: Pick<LimitSettingsStore, "get">; defaultTimeZone?: string | undefined }): ChatZones {
  const fallback = deps.defaultTimeZone ?? DEFAULT_TIME_ZONE;
  return {
    async zoneOf(chatId) {
      const zone = (await deps.settings.get(chatId)).timeZone;
      return zone === undefined ? { zone: fallback, chosen: false } : { zone, chosen: true };
    },
  };
}

/** What a chat that has not picked a zone is told in (tests and code paths without a store). */
export const UNCHOSEN_UTC: ChatZone = { zone: DEFAULT_TIME_ZONE, chosen: false };

/**
 * The zone most speakers of a language live in, offered (never assumed) to a chat in that language:
 * Russian → Moscow time, Chinese → Beijing time. English is spoken in every zone: nothing to guess.
 */
const LANGUAGE_ZONES: Readonly<Record<string, string>> = { ru: "Europe/Moscow", zh: "Asia/Shanghai" };

export function languageZone(locale: string): string | undefined {
  return LANGUAGE_ZONES[locale.toLowerCase().split(/[-_]/)[0] ?? ""];
}
