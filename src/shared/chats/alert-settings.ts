import type { Logger } from "pino";
import { z } from "zod";
import { readTrxAmount, SUN_PER_TRX } from "../money.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * What the balance watch tells one chat (`/alerts`): deposit notices, the
 * low-balance alert and its threshold, reports of charges the bot did not
 * make. Everything is on by default; no threshold means the default one.
 */

const alertSettingsSchema = z.object({
  deposits: z.boolean(),
  lowBalance: z.boolean(),
  /** Exact sun; absent: max(10 TRX, the next renewal's cost). */
  thresholdSun: z.string().regex(/^\d+$/).optional(),
  foreignCharges: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const ALERT_SWITCHES = ["deposits", "lowBalance", "foreignCharges"] as const;
export type AlertSwitch = (typeof ALERT_SWITCHES)[number];

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { deposits: true, lowBalance: true, foreignCharges: true };

/** The floor of the default threshold: the service's minimum deposit (10 TRX). */
export const DEFAULT_LOW_BALANCE_SUN = 10n * SUN_PER_TRX;

/** A threshold above this is surely a typo (a billion TRX). */
export const MAX_THRESHOLD_SUN = 1_000_000_000n * SUN_PER_TRX;

export type ThresholdParse =
  { ok: true; sun: bigint } | { ok: false; reason: "format" | "negative" | "too_large" } | { ok: false; reason: "ambiguous"; readings: [bigint, bigint] };

/** "25.5" -> 25_500_000 sun, exactly, at most 6 decimals; "25,5" and "1 000" too where the locale writes them so (`readTrxAmount`). */
export function parseThreshold(text: string, locale?: string): ThresholdParse {
  const read = readTrxAmount(text, locale);
  if (!read.ok) return read.reason === "ambiguous" ? read : { ok: false, reason: "format" };
  const sun = read.sun;
  if (sun < 0n) return { ok: false, reason: "negative" };
  if (sun > MAX_THRESHOLD_SUN) return { ok: false, reason: "too_large" };
  return { ok: true, sun };
}

/** The user's threshold, else max(10 TRX, the next renewal's cost). */
export function lowBalanceThresholdSun(settings: AlertSettings, nextRenewalCostSun: bigint | undefined): bigint {
  if (settings.thresholdSun !== undefined) return BigInt(settings.thresholdSun);
  return nextRenewalCostSun !== undefined && nextRenewalCostSun > DEFAULT_LOW_BALANCE_SUN ? nextRenewalCostSun : DEFAULT_LOW_BALANCE_SUN;
}

export interface AlertSettingsStore {
  get(chatId: number): Promise<AlertSettings>;
  setSwitch(chatId: number, which: AlertSwitch, on: boolean): Promise<AlertSettings>;
  /** Undefined goes back to the default threshold. */
  setThreshold(chatId: number, sun: bigint | undefined): Promise<AlertSettings>;
}

export function createAlertSettings({ store, logger }: { store: StoreBackend; logger: Logger }): AlertSettingsStore {
  const records = createRecordStore({ kv: store.namespace("alert-settings"), schema: alertSettingsSchema, version: 1, logger, name: "alert-settings" });
  const id = (chatId: number) => String(chatId);
  const change = async (chatId: number, fn: (s: AlertSettings) => AlertSettings): Promise<AlertSettings> =>
    (await records.update(id(chatId), (current) => fn(current ?? DEFAULT_ALERT_SETTINGS))) ?? DEFAULT_ALERT_SETTINGS;
  return {
    async get(chatId) {
      return (await records.get(id(chatId))) ?? DEFAULT_ALERT_SETTINGS;
    },
    setSwitch: (chatId, which, on) => change(chatId, (s) => ({ ...s, [which]: on })),
    setThreshold: (chatId, sun) =>
      change(chatId, (s) => {
        const { thresholdSun: _old, ...rest } = s;
        return sun === undefined ? rest : { ...rest, thresholdSun: sun.toString() };
      }),
  };
}
