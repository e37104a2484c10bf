import type { ActiveHours } from "./keep-plan.js";

/**
 * What a keep plan's day holds at one slot price: how many orders a day it places back to back
 * (within its active hours, if any), how many of them its daily cap lets through, and what that day
 * costs. The plan waits for the next day once the next slot would pass the cap (keep-step.ts), so
 * the cap, not the clock, decides a capped day.
 */
export interface KeepDayAllowance {
  /** Orders a whole day would place without a cap. */
  slotsPerDay: number;
  /** Orders the cap lets through (all of them without a cap). */
  admitted: number;
  /** What the admitted orders cost: the plan's real daily ceiling at this price. */
  daySun: bigint;
}

/** Seconds of the day the plan may renew in. */
function activeSeconds(hours: ActiveHours | undefined): number {
  if (hours === undefined || hours.fromMin === hours.toMin) return 86_400;
  const minutes = hours.fromMin < hours.toMin ? hours.toMin - hours.fromMin : 1440 - hours.fromMin + hours.toMin;
  return minutes * 60;
}

export function keepDayAllowance(input: {
  slotSun: bigint;
  durationSec: number;
  activeHours?: ActiveHours | undefined;
  dailyCapSun?: string | undefined;
}): KeepDayAllowance {
  const slotsPerDay = Math.max(1, Math.ceil(activeSeconds(input.activeHours) / input.durationSec));
  let admitted = slotsPerDay;
  if (input.dailyCapSun !== undefined && input.slotSun > 0n) {
    const fit = BigInt(input.dailyCapSun) / input.slotSun;
    if (fit < BigInt(slotsPerDay)) admitted = Number(fit);
  }
  return { slotsPerDay, admitted, daySun: BigInt(admitted) * input.slotSun };
}

/**
 * The cap a plan proposed from a reminder or a card carries unless the user names one: the chat's
 * daily spending limit when it has one and it is lower, else one day of renewals at today's price
 * (so a price rise never buys past what the proposal showed).
 */
export function defaultKeepCap(slotsPerDay: number, slotSun: bigint, chatDailyCapSun: string | undefined): { capSun: bigint; chosen: "limit" | "day" } {
  const day = BigInt(slotsPerDay) * slotSun;
  if (chatDailyCapSun !== undefined && BigInt(chatDailyCapSun) < day) return { capSun: BigInt(chatDailyCapSun), chosen: "limit" };
  return { capSun: day, chosen: "day" };
}
