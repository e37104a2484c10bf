import type { Logger } from "pino";
import { delegationEndsAtMs, type OrderHistory } from "../../shared/orders/order-history.js";
import type { PlaceResult } from "../../shared/orders/place-order.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import {
  isWithinHours,
  KEPT_SLOTS,
  localDay,
  localMinute,
  newerRenewal,
  nextDayStartMs,
  nextWindowStartMs,
  renewalLeadMs,
  spentTodaySun,
  type KeepPlan,
  type StopReason,
} from "./keep-plan.js";
import { isCommitted, placeSlot, slotQuote, type SlotDeps } from "./keep-slot.js";
import type { KeepStore } from "./keep-store.js";

/** Part B's spend guard, as far as plans use it (structural: plans do not import the limits module). */
export interface SpendGuardLike {
  authorize(
    chatId: number,
    costSun: bigint,
    kind: "renewal",
  ): Promise<
    { allowed: true; needsSecondTap: boolean } | { allowed: false; reason: "frozen" | "daily_cap" | "monthly_cap"; capSun?: string; spentSun?: string }
  >;
}

type LimitsRefusal = Extract<Awaited<ReturnType<SpendGuardLike["authorize"]>>, { allowed: false }>;

/** What the chat is told about; `eventId` is stable for one transition (the push job id). */
export type KeepEvent =
  | {
      kind: "paused-balance";
      eventId: string;
      plan: KeepPlan;
      requiredSun: string;
      balance?: { availableSun: number; depositAddress: string | null };
      noWallet?: boolean;
    }
  | { kind: "resumed-balance"; eventId: string; plan: KeepPlan; availableSun: number }
  | { kind: "paused-limits"; eventId: string; plan: KeepPlan; reason: "daily_cap" | "monthly_cap"; capSun?: string; spentSun?: string }
  | { kind: "capped"; eventId: string; plan: KeepPlan; resumesAtMs: number }
  | { kind: "stopped"; eventId: string; plan: KeepPlan };

export interface KeepStepDeps extends SlotDeps {
  plans: KeepStore;
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBalance">;
  history: Pick<OrderHistory, "get">;
  chats: {
    getApiKey(chatId: number): Promise<string | undefined>;
    get(chatId: number): Promise<{ linkId?: string | undefined } | undefined>;
  };
  spend?: SpendGuardLike;
  onEvent: (event: KeepEvent) => Promise<void>;
  logger: Logger;
  leadMs: number;
  leadFraction: number;
  balanceRecheckMs: number;
}

const eventIdOf = (plan: KeepPlan, what: string): string => `keep:${plan.planId}:${plan.nextSlot}:${what}:${plan.updatedAtMs}`;

/**
 * One look at one plan by the process holding its lease: stop it when its
 * window or link is gone, wait for delivery, the lead, the active hours, the
 * next day (cap) or money, else buy the next slot.
 */
export function createKeepStep(deps: KeepStepDeps): (planId: string) => Promise<void> {
  const { plans, logger, now } = deps;

  /** The event goes out first: a crash before the write repeats the same transition under the same id, which the push queue drops. */
  async function transition(plan: KeepPlan, event: KeepEvent | undefined, change: (p: KeepPlan) => KeepPlan): Promise<void> {
    if (event) await deps.onEvent(event);
    await plans.update(plan.planId, (current) => (current.state === "stopped" ? current : { ...change(current), updatedAtMs: now() }));
  }

  function stop(plan: KeepPlan, reason: StopReason, reasonCode?: string): Promise<void> {
    const stopped: KeepPlan = { ...plan, state: "stopped", stopReason: reason, ...(reasonCode === undefined ? {} : { reasonCode }) };
    logger.info({ planId: plan.planId, reason, reasonCode }, "keep plan stopped");
    return transition(plan, { kind: "stopped", eventId: eventIdOf(plan, `stopped-${reason}`), plan: stopped }, (p) => ({
      ...p,
      state: "stopped",
      stopReason: reason,
      waiting: undefined,
      nextRenewalAtMs: undefined,
      ...(reasonCode === undefined ? {} : { reasonCode }),
    }));
  }

  /** Writes only the scheduler's own fields, so a Pause or Stop written meanwhile stands. */
  async function wait(plan: KeepPlan, waiting: NonNullable<KeepPlan["waiting"]>, atMs: number | undefined): Promise<void> {
    if (plan.waiting === waiting && plan.nextRenewalAtMs === atMs) return;
    await plans.update(plan.planId, (p) => ({ ...p, waiting, nextRenewalAtMs: atMs }));
  }

  async function whileShort(plan: KeepPlan, apiKey: string): Promise<boolean> {
    const at = now();
    if (plan.balanceCheckAtMs !== undefined && at < plan.balanceCheckAtMs) return false;
    const required = BigInt(plan.lastCostSun ?? "0");
    let availableSun: number;
    try {
      availableSun = (await deps.service.getBalance(apiKey)).availableSun;
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      logger.debug({ planId: plan.planId, code: error.code }, "balance unreadable while a plan waits for a top-up");
      await plans.update(plan.planId, (p) => ({ ...p, balanceCheckAtMs: at + deps.balanceRecheckMs }));
      return false;
    }
    if (BigInt(availableSun) < required) {
      await plans.update(plan.planId, (p) => ({ ...p, balanceCheckAtMs: at + deps.balanceRecheckMs }));
      return false;
    }
    const resumed: KeepPlan = { ...plan, state: "active", pauseReason: undefined };
    await transition(plan, { kind: "resumed-balance", eventId: eventIdOf(plan, "resumed"), plan: resumed, availableSun }, (p) =>
      p.state === "paused" && p.pauseReason === "balance"
        ? { ...p, state: "active", pauseReason: undefined, balanceCheckAtMs: undefined, waiting: undefined }
        : p,
    );
    return true;
  }

  /** When the next slot is due; undefined while the current order is not delivered yet. */
  async function dueAtMs(plan: KeepPlan): Promise<number | undefined> {
    const last = plan.slots.at(-1);
    if (plan.nextSlot === 0 || last === undefined) return plan.createdAtMs;
    const entry = await deps.history.get(plan.chatId, "order", last.orderId);
    const end = entry === undefined ? undefined : delegationEndsAtMs(entry);
    return end === undefined ? undefined : end - renewalLeadMs(plan.durationSec, deps.leadMs, deps.leadFraction);
  }

  async function onPlaced(plan: KeepPlan, result: Extract<PlaceResult, { status: "placed" }>): Promise<void> {
    const order = result.orders[0];
    if (order === undefined) return;
    const at = now();
    const day = localDay(plan.timeZone, at);
    const cost = BigInt(order.totalCostSun);
    const createdAtMs = Date.parse(order.createdAt);
    const placed = { orderId: order.orderId, status: order.status, atMs: at, createdAtMs: Number.isNaN(createdAtMs) ? at : createdAtMs };
    await plans.update(plan.planId, (p) => {
      // Another look may have recorded this slot already (a stale read): count it once.
      if (p.nextSlot !== plan.nextSlot) return p;
      const spentToday = spentTodaySun(p, at);
      return {
        ...p,
        lastRenewal: newerRenewal(p.lastRenewal, placed) ?? p.lastRenewal,
        nextSlot: p.nextSlot + 1,
        slots: [...p.slots, { slot: p.nextSlot, orderId: order.orderId, costSun: cost.toString(), placedAtMs: at }].slice(-KEPT_SLOTS),
        spentTotalSun: (BigInt(p.spentTotalSun) + cost).toString(),
        spentDay: { day, sun: (spentToday + cost).toString() },
        lastCostSun: cost.toString(),
        waiting: "delivery",
        nextRenewalAtMs: undefined,
        reasonCode: undefined,
        updatedAtMs: at,
      };
    });
    logger.info({ planId: plan.planId, slot: plan.nextSlot, orderId: order.orderId, replayed: result.replayed }, "keep plan slot bought");
  }

  async function onRefused(plan: KeepPlan, result: Extract<PlaceResult, { status: "failed" }>): Promise<void> {
    const { error } = result;
    if (error.code === "wallet.insufficient_balance") {
      const requiredSun = result.quote.totalSun;
      await transition(
        plan,
        {
          kind: "paused-balance",
          eventId: eventIdOf(plan, "short"),
          plan,
          requiredSun,
          ...(result.balance === undefined ? {} : { balance: { availableSun: result.balance.availableSun, depositAddress: result.balance.depositAddress } }),
          ...(result.noWallet ? { noWallet: true } : {}),
        },
        (p) =>
          p.state === "active"
            ? { ...p, state: "paused", pauseReason: "balance", lastCostSun: requiredSun, balanceCheckAtMs: now() + deps.balanceRecheckMs, waiting: "balance" }
            : p,
      );
      return;
    }
    if (error.code === "order.receiver_undeliverable") return stop(plan, "undeliverable", error.code);
    // Unknown outcome, overload, a key still in flight: the same key again at the next look.
    if (!result.retryable || error.isKeyRejected) return stop(plan, error.isKeyRejected ? "unlinked" : "refused", error.code);
    logger.warn({ planId: plan.planId, code: error.code }, "keep plan slot not bought yet; trying again");
  }

  async function buy(plan: KeepPlan, apiKey: string): Promise<void> {
    const pricing = await deps.pricing.get();
    const quote = await slotQuote(deps, plan, pricing);
    if ("error" in quote) return stop(plan, "refused", "unknown_duration");
    if (!isCommitted(quote)) {
      const cost = BigInt(quote.totalSun);
      if (plan.dailyCapSun !== undefined) {
        const at = now();
        const day = localDay(plan.timeZone, at);
        const spentToday = spentTodaySun(plan, at);
        // Exactly at the cap: a slot that would pass it waits for the next day.
        if (spentToday + cost > BigInt(plan.dailyCapSun)) {
          const resumesAtMs = nextDayStartMs(plan.timeZone, at);
          if (plan.waiting !== "cap") await deps.onEvent({ kind: "capped", eventId: eventIdOf(plan, `cap-${day}`), plan, resumesAtMs });
          return wait(plan, "cap", resumesAtMs);
        }
      }
      if (deps.spend) {
        const decision = await deps.spend.authorize(plan.chatId, cost, "renewal");
        if (!decision.allowed) return refusedByLimits(plan, decision);
      }
    }
    const result = await placeSlot(deps, plan, quote, apiKey);
    switch (result.status) {
      case "placed":
        return onPlaced(plan, result);
      case "failed":
        return onRefused(plan, result);
      case "over_limit":
        // The placer's own check, made under the chat's lock, has the last word (another charge got in first).
        return refusedByLimits(plan, result.refusal);
      default:
        // expired, cancelled (/cancel met the slot's quote), not found: nothing charged, rebuilt at the next look.
        logger.info({ planId: plan.planId, status: result.status }, "keep plan slot quote not usable; quoting afresh");
    }
  }

  function refusedByLimits(plan: KeepPlan, refusal: LimitsRefusal): Promise<void> {
    if (refusal.reason === "frozen") return stop(plan, "frozen");
    const { reason, capSun, spentSun } = refusal;
    return transition(
      plan,
      {
        kind: "paused-limits",
        eventId: eventIdOf(plan, reason),
        plan,
        reason,
        ...(capSun === undefined ? {} : { capSun }),
        ...(spentSun === undefined ? {} : { spentSun }),
      },
      (p) => (p.state === "active" ? { ...p, state: "paused", pauseReason: "limits", waiting: undefined } : p),
    );
  }

  return async function step(planId: string): Promise<void> {
    let plan = await plans.get(planId);
    if (plan === undefined || plan.state === "stopped") return;
    if (plan.state === "paused" && plan.pauseReason !== "balance") return;
    const apiKey = await deps.chats.getApiKey(plan.chatId);
    const record = await deps.chats.get(plan.chatId);
    // Unlinked, or linked again (maybe to another account): the plan was made for the old link.
    if (apiKey === undefined || (plan.linkId !== undefined && record?.linkId !== plan.linkId)) return stop(plan, "unlinked");
    if (plan.state === "paused") {
      if (!(await whileShort(plan, apiKey))) return;
      plan = (await plans.get(planId)) ?? plan;
      if (plan.state !== "active") return;
    }
    const at = now();
    if (plan.endsAtMs !== undefined && at >= plan.endsAtMs) return stop(plan, "ended");
    const due = await dueAtMs(plan);
    if (due === undefined) return wait(plan, "delivery", undefined);
    // The next delegation would start after the window: nothing more to buy.
    if (plan.endsAtMs !== undefined && due >= plan.endsAtMs) return stop(plan, "ended");
    if (at < due) return wait(plan, "lead", due);
    if (plan.activeHours && !isWithinHours(plan.activeHours, localMinute(plan.timeZone, at))) {
      return wait(plan, "hours", nextWindowStartMs(plan.timeZone, plan.activeHours, at));
    }
    await buy(plan, apiKey);
  };
}
