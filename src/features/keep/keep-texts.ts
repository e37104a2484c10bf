import { formatHours, type KeepPlan } from "./keep-plan.js";
import type { KeepDaySummary } from "./keep-day-summary.js";
import { dateTimeFormat } from "../../shared/date-formats.js";
import type { KeepDraft } from "./keep-store.js";
import { keepDayAllowance } from "./keep-allowance.js";
import { formatDuration } from "../../bot/helpers/duration.js";
import { clockText } from "../../bot/helpers/expiry-text.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { code, translate } from "../../bot/helpers/html.js";
import { statusText, type Translator } from "../../bot/helpers/record-text.js";

/**
 * How a plan's moments are drawn: in the chat's zone, like every other time the bot shows
 * ("18:00 UTC+1", "Nov 25, 18:00 UTC+1"); the plan's own zone only counts its days and hours.
 */
export interface KeepClock {
  nowMs: number;
  locale: string;
  timeZone: string;
}

export function keepTime(atMs: number, clock: KeepClock): string {
  return clockText(atMs, clock.nowMs, clock.locale, clock.timeZone);
}

type PlanTerms = Pick<KeepPlan, "address" | "amount" | "durationSec" | "endsAtMs" | "dailyCapSun" | "activeHours" | "timeZone">;

/** What the plan buys and within which limits, one line each. */
function termsLines(tr: Translator, plan: PlanTerms, clock: KeepClock): string[] {
  const { locale } = clock;
  const lines = [
    translate(tr, "keep-terms-what", {
      amount: formatInteger(plan.amount, locale),
      duration: formatDuration(tr, plan.durationSec),
      address: code(plan.address),
    }),
    plan.endsAtMs === undefined ? translate(tr, "keep-terms-until-stopped") : translate(tr, "keep-terms-until", { at: keepTime(plan.endsAtMs, clock) }),
  ];
  if (plan.dailyCapSun !== undefined) lines.push(translate(tr, "keep-terms-cap", { capTrx: formatTrx(BigInt(plan.dailyCapSun), locale) }));
  if (plan.activeHours !== undefined) lines.push(translate(tr, "keep-terms-hours", { hours: formatHours(plan.activeHours), timeZone: plan.timeZone }));
  return lines;
}

/** What a day of the plan costs and what its cap really lets through, at today's price. */
function draftPriceLine(tr: Translator, draft: KeepDraft, locale: string): string {
  const slotSun = BigInt(draft.amount) * BigInt(draft.unitPriceSun);
  const day = keepDayAllowance({ slotSun, durationSec: draft.durationSec, activeHours: draft.activeHours, dailyCapSun: draft.dailyCapSun });
  const vars = {
    slotTrx: formatTrx(slotSun, locale),
    duration: formatDuration(tr, draft.durationSec),
    dayTrx: formatTrx(day.daySun, locale),
  };
  if (draft.dailyCapSun === undefined) return translate(tr, "keep-draft-price", vars);
  const capTrx = formatTrx(BigInt(draft.dailyCapSun), locale);
  if (day.admitted === 0) return translate(tr, "keep-draft-cap-none", { ...vars, capTrx });
  if (day.admitted >= day.slotsPerDay) return translate(tr, "keep-draft-cap-all", { ...vars, capTrx, slots: day.slotsPerDay });
  return translate(tr, "keep-draft-cap-some", {
    ...vars,
    capTrx,
    orders: day.admitted,
    slots: day.slotsPerDay,
    covered: formatDuration(tr, Math.min(86_400, day.admitted * draft.durationSec)),
  });
}

/** The proposal: terms, the price of one slot now, and what a day costs within its cap. */
export function keepDraftText(tr: Translator, draft: KeepDraft, clock: KeepClock): string {
  const { locale } = clock;
  const lines = [translate(tr, "keep-draft-title"), ...termsLines(tr, draft, clock), draftPriceLine(tr, draft, locale)];
  if (draft.capChosen !== undefined && draft.dailyCapSun !== undefined) {
    lines.push(
      translate(tr, "keep-draft-cap-default", {
        capTrx: formatTrx(BigInt(draft.dailyCapSun), locale),
        why: draft.capChosen,
        address: draft.address,
        amount: String(draft.amount),
        // Seconds are read in every language (duration-input.ts): the command works as shown.
        durationArg: `${draft.durationSec}s`,
      }),
    );
  }
  lines.push(translate(tr, "keep-draft-note"));
  return lines.join("\n");
}

/** A running plan with new limits, before they are saved: its terms and what a day then costs at today's price. */
export function keepEditText(tr: Translator, edited: KeepDraft, clock: KeepClock): string {
  return [translate(tr, "keep-card-title"), ...termsLines(tr, edited, clock), draftPriceLine(tr, edited, clock.locale)].join("\n");
}

function stateLine(tr: Translator, plan: KeepPlan, clock: KeepClock): string {
  if (plan.state === "stopped") return translate(tr, `keep-state-stopped-${plan.stopReason ?? "user"}`);
  if (plan.state === "paused") return translate(tr, `keep-state-paused-${plan.pauseReason ?? "user"}`);
  switch (plan.waiting) {
    case "hours":
    case "cap":
    case "lead":
      return plan.nextRenewalAtMs === undefined
        ? translate(tr, "keep-state-active")
        : translate(tr, `keep-state-${plan.waiting}`, { at: keepTime(Math.max(plan.nextRenewalAtMs, clock.nowMs), clock) });
    case "delivery":
      return translate(tr, "keep-state-delivery");
    default:
      // Outside the active hours or at the cap, even the first order waits (said above).
      return translate(tr, plan.nextSlot === 0 ? "keep-state-first" : "keep-state-active");
  }
}

/** The newest order and the status it was last seen in, with when: what the renewals did lately. */
function lastRenewalLines(tr: Translator, plan: KeepPlan, clock: KeepClock): string[] {
  const last = plan.lastRenewal;
  if (last === undefined) return [];
  return [translate(tr, "keep-card-last", { orderId: code(last.orderId), status: statusText(tr, last.status), at: keepTime(last.atMs, clock) })];
}

function spentLine(tr: Translator, plan: KeepPlan, spentTodaySun: bigint, locale: string): string {
  return translate(tr, "keep-plan-spent", { todayTrx: formatTrx(spentTodaySun, locale), totalTrx: formatTrx(BigInt(plan.spentTotalSun), locale) });
}

/** One plan in the list, numbered like its buttons. */
function keepPlanText(tr: Translator, plan: KeepPlan, n: number, spentTodaySun: bigint, clock: KeepClock): string {
  return [
    translate(tr, "keep-plan-title", { n, slots: plan.nextSlot }),
    ...termsLines(tr, plan, clock),
    stateLine(tr, plan, clock),
    ...lastRenewalLines(tr, plan, clock),
    spentLine(tr, plan, spentTodaySun, clock.locale),
  ].join("\n");
}

/**
 * The plan's card: its terms and the digest of its renewals (state, orders placed, the newest order's
 * status and when it was seen, the spend), redrawn in place as the plan goes on.
 */
export function keepCardText(tr: Translator, plan: KeepPlan, spentTodaySun: bigint, clock: KeepClock): string {
  return [
    translate(tr, "keep-card-title"),
    ...termsLines(tr, plan, clock),
    stateLine(tr, plan, clock),
    translate(tr, "keep-card-orders", { slots: plan.nextSlot }),
    ...lastRenewalLines(tr, plan, clock),
    spentLine(tr, plan, spentTodaySun, clock.locale),
  ].join("\n");
}

/** One chat's plans over its day that ended: orders and spend per plan, and the day's total. */
export function keepDaySummaryText(tr: Translator, summary: KeepDaySummary, locale: string): string {
  const date = dateTimeFormat(locale, { timeZone: summary.timeZone, year: "numeric", month: "long", day: "numeric" }).format(summary.dayStartMs);
  let orders = 0;
  let spent = 0n;
  const lines = summary.plans.map((line) => {
    orders += line.orders;
    spent += BigInt(line.spentSun);
    return translate(tr, "keep-day-plan", { address: code(line.address), orders: line.orders, spentTrx: formatTrx(BigInt(line.spentSun), locale) });
  });
  return [translate(tr, "keep-day-title", { date }), ...lines, translate(tr, "keep-day-total", { orders, spentTrx: formatTrx(spent, locale) })].join("\n");
}

export function keepListText(tr: Translator, plans: readonly KeepPlan[], spentToday: (plan: KeepPlan) => bigint, clock: KeepClock): string {
  if (plans.length === 0) return translate(tr, "keep-list-empty");
  return [translate(tr, "keep-list-title"), ...plans.map((p, i) => keepPlanText(tr, p, i + 1, spentToday(p), clock))].join("\n\n");
}
