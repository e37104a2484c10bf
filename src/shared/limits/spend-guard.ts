import type { Logger } from "pino";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import type { OrderHistory } from "../orders/order-history.js";
import type { LimitField, LimitSettings, LimitSettingsStore } from "./limit-settings.js";
import { spentIn, type Spent } from "./spend-ledger.js";
import { createChatZones, type ChatZone } from "./chat-zone.js";
import { DEFAULT_TIME_ZONE, spendWindows } from "./spend-window.js";

/**
 * The spend guardrails of a chat's account: daily and monthly caps over everything the
 * bot spends for it from any of its chats (orders, batches, broadcasts, renewals), counted from the
 * bot's own ledger (the order history), a confirm threshold, and Freeze.
 * Asked before money moves; a charge that would cross a cap is refused, so a
 * cap is never exceeded by the bot's own charges (docs/limits.md).
 */

export type SpendKind = "order" | "batch" | "broadcast" | "renewal";
export type SpendDecision =
  { allowed: true; needsSecondTap: boolean } | { allowed: false; reason: "frozen" | "daily_cap" | "monthly_cap"; capSun?: string; spentSun?: string };
export type SpendRefusal = Extract<SpendDecision, { allowed: false }>;

export interface SpendGuard {
  authorize(chatId: number, costSun: bigint, kind: SpendKind): Promise<SpendDecision>;
  isFrozen(chatId: number): Promise<boolean>;
}

/** A guard whose check and charge can be made one step per chat (the placement paths use it). */
export interface SpendGate extends SpendGuard {
  /**
   * Runs `fn` after every earlier `exclusive` of the chat has settled (in this process): a check
   * and the charge it allows inside one `fn` cannot interleave with another confirmation's.
   */
  exclusive<T>(chatId: number, fn: () => Promise<T>): Promise<T>;
}

export interface SpendStatus {
  settings: LimitSettings;
  timeZone: string;
  spent: Spent;
}

export interface SpendLimits extends SpendGate {
  status(chatId: number): Promise<SpendStatus>;
  /** Sets (sun) or clears (undefined) a cap or the threshold. */
  set(chatId: number, field: LimitField, sun: bigint | undefined): Promise<LimitSettings>;
  setTimeZone(chatId: number, timeZone: string | undefined): Promise<LimitSettings>;
  /** The chat's one time zone (set with /limits or /settings, else the default): its days, months and clock times. */
  timeZoneOf(chatId: number): Promise<string>;
  /** The same zone, and whether the chat picked it (the default is only shown, never assumed). */
  zoneOf(chatId: number): Promise<ChatZone>;
  /** Refuses every spend of the chat from now on and calls `onFreeze` (which stops its plans). */
  freeze(chatId: number): Promise<void>;
  unfreeze(chatId: number): Promise<void>;
}

export interface SpendLimitsDeps {
  settings: LimitSettingsStore;
  history: Pick<OrderHistory, "spend">;
  logger: Logger;
  now?: () => number;
  /** The zone of a chat that set none; UTC by default. */
  defaultTimeZone?: string;
  /** Called after a chat froze its spending; the composition root stops the chat's keep plans with it. */
  onFreeze?: (chatId: number) => Promise<void>;
  /** The account a chat is linked to: chats of one account check and charge one after another. */
  accountOf?: (chatId: number) => Promise<string | undefined>;
}

/** The refusal of a charge that would take `spent` past `cap`; undefined when there is no cap or it fits. */
function crossing(reason: "daily_cap" | "monthly_cap", cap: string | undefined, spent: bigint, cost: bigint): SpendRefusal | undefined {
  if (cap === undefined || spent + cost <= BigInt(cap)) return undefined;
  return { allowed: false, reason, capSun: cap, spentSun: spent.toString() };
}

/**
 * What the limits say about one charge, from a status read beforehand: the placer asks it under the
 * chat's lock, a quote asks it to show a refusal before its Confirm exists.
 */
export function decideSpend({ settings: limits, spent }: SpendStatus, costSun: bigint, kind: SpendKind): SpendDecision {
  const refusal: SpendRefusal | undefined = limits.frozen
    ? { allowed: false, reason: "frozen" }
    : (crossing("daily_cap", limits.dailyCapSun, spent.daySun, costSun) ?? crossing("monthly_cap", limits.monthlyCapSun, spent.monthSun, costSun));
  // A renewal has nobody to tap: the threshold is for what a person confirms.
  const needsSecondTap = kind !== "renewal" && limits.confirmAboveSun !== undefined && costSun > BigInt(limits.confirmAboveSun);
  return refusal ?? { allowed: true, needsSecondTap };
}

export function createSpendLimits(deps: SpendLimitsDeps): SpendLimits {
  const { settings, history } = deps;
  const now = deps.now ?? Date.now;
  const logger = deps.logger.child({ component: "spend-limits" });
  const mutex = createKeyedMutex();
  const zones = createChatZones({ settings, defaultTimeZone: deps.defaultTimeZone });
  /** The caps are the account's: its chats' checks and charges queue on one lock (in this process). */
  const lockOf = async (chatId: number): Promise<string> => {
    const accountId = await deps.accountOf?.(chatId);
    return accountId === undefined ? String(chatId) : `@${accountId}`;
  };

  async function status(chatId: number): Promise<SpendStatus> {
    const current = await settings.get(chatId);
    const timeZone = current.timeZone ?? deps.defaultTimeZone ?? DEFAULT_TIME_ZONE;
    const spent = spentIn(await history.spend(chatId), spendWindows(now(), timeZone));
    return { settings: current, timeZone, spent };
  }

  return {
    async authorize(chatId, costSun, kind) {
      const decision = decideSpend(await status(chatId), costSun, kind);
      if (!decision.allowed) logger.info({ chatId, kind, costSun: costSun.toString(), reason: decision.reason }, "spend refused by the chat's limits");
      return decision;
    },
    async isFrozen(chatId) {
      return (await settings.get(chatId)).frozen;
    },
    exclusive: async (chatId, fn) => mutex.run(await lockOf(chatId), fn),
    status,
    set(chatId, field, sun) {
      return settings.update(chatId, (current) => {
        const { [field]: _old, ...rest } = current;
        return sun === undefined ? rest : { ...rest, [field]: sun.toString() };
      });
    },
    async timeZoneOf(chatId) {
      return (await settings.get(chatId)).timeZone ?? deps.defaultTimeZone ?? DEFAULT_TIME_ZONE;
    },
    zoneOf: (chatId) => zones.zoneOf(chatId),
    setTimeZone(chatId, timeZone) {
      return settings.update(chatId, (current) => {
        const { timeZone: _old, ...rest } = current;
        return timeZone === undefined ? rest : { ...rest, timeZone };
      });
    },
    async freeze(chatId) {
      // Under the chat's lock: a charge already allowed is sent before the freeze returns, none after.
      await mutex.run(await lockOf(chatId), () => settings.update(chatId, (current) => ({ ...current, frozen: true })));
      logger.info({ chatId }, "spending frozen");
      try {
        await deps.onFreeze?.(chatId);
      } catch (error) {
        // The freeze itself holds (every spend is refused); only stopping the plans failed.
        logger.error({ err: error, chatId }, "onFreeze failed");
      }
    },
    async unfreeze(chatId) {
      await settings.update(chatId, (current) => ({ ...current, frozen: false }));
      logger.info({ chatId }, "spending unfrozen");
    },
  };
}
