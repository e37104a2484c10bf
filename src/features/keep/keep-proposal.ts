import { randomBytes } from "node:crypto";
import { SUN_PER_TRX } from "../../shared/money.js";
import { checkAmount } from "../../shared/orders/order-input.js";
import type { ReceiverResolver } from "../../shared/orders/one-shot.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { defaultKeepCap, keepDayAllowance } from "./keep-allowance.js";
import { parseKeepOptions, type KeepOptions, type KeepParse } from "./keep-input.js";
import type { KeepDraft, KeepStore } from "./keep-store.js";

/**
 * The proposal of a keep plan, for every place a plan is proposed from (/keep typed in one line, the guided
 * flow, "Keep charged" under an order, the Mini App's New plan and Edit): what the plan buys and within which
 * limits, priced at the tier's price now, with the cap a one-tap proposal carries, and the option presets,
 * each the typed option it stands for, so a tap anywhere and the same option typed are one setting.
 */

/** What a proposal holds before it is priced and stored. JSON, so a conversation can keep it. */
export type KeepDraftInput = Omit<KeepDraft, "draftId" | "createdAtMs" | "unitPriceSun">;

/** What the plan buys, chosen before its limits. */
export interface KeepOrderChoice {
  chatId: number;
  address: string;
  amount: number;
  durationSec: number;
}

/**
 * The window presets, each the typed option it stands for, read by `parseKeepOptions` in the zone the
 * plan's days are counted in. "Tonight" ends at 23:59, so the proposal names today.
 */
export const KEEP_WINDOW_PRESETS = {
  t: { option: "until", text: "until=23:59" },
  d: { option: "until", text: "until=24h" },
  h: { option: "hours", text: "hours=09:00-18:00" },
} as const;
export type KeepWindowPreset = keyof typeof KEEP_WINDOW_PRESETS;
export const isKeepWindowPreset = (value: string): value is KeepWindowPreset => Object.hasOwn(KEEP_WINDOW_PRESETS, value);

/** A daily cap as the typed option (`cap=200`): whole TRX only, as the cap buttons carry it. */
export function keepCapPresetText(value: string): string | undefined {
  return /^[1-9]\d{0,9}$/.test(value) ? `cap=${value}` : undefined;
}

/** Round amounts (1, 2 and 5 × 10ⁿ TRX) from the one just below what a day of the plan costs to the first three that cover it. */
export function keepCapPresetsTrx(daySun: bigint): number[] {
  const round: number[] = [];
  for (let power = 1; power <= 1_000_000_000; power *= 10) round.push(power, 2 * power, 5 * power);
  const covering = round.findIndex((trx) => BigInt(trx) * SUN_PER_TRX >= daySun);
  const first = covering < 0 ? round.length - 4 : Math.max(0, covering - 1);
  return round.slice(first, first + 4);
}

/** What a whole day of the plan costs without a cap at today's tier price, within its hours: what the cap presets go around. */
export function keepUncappedDaySun(draft: Pick<KeepDraft, "amount" | "unitPriceSun" | "durationSec" | "activeHours">): bigint {
  const slotSun = BigInt(draft.amount) * BigInt(draft.unitPriceSun);
  return keepDayAllowance({ slotSun, durationSec: draft.durationSec, activeHours: draft.activeHours }).daySun;
}

export function keepDraftInput(choice: KeepOrderChoice, options: KeepOptions): KeepDraftInput {
  return {
    chatId: choice.chatId,
    address: choice.address,
    amount: choice.amount,
    durationSec: choice.durationSec,
    timeZone: options.timeZone,
    ...(options.endsAtMs === undefined ? {} : { endsAtMs: options.endsAtMs }),
    ...(options.dailyCapSun === undefined ? {} : { dailyCapSun: options.dailyCapSun.toString() }),
    ...(options.activeHours === undefined ? {} : { activeHours: options.activeHours }),
  };
}

/** The proposal priced at the tier's price now, never stored (what a form or a step shows); undefined when the duration is no tier. */
export function priceKeepDraft(pricing: Pricing, nowMs: number, input: KeepDraftInput, draftId = "000000000000"): KeepDraft | undefined {
  const tier = pricing.tiers.find((t) => t.durationSec === input.durationSec);
  if (tier === undefined) return undefined;
  return { ...input, draftId, unitPriceSun: tier.unitPriceSun, createdAtMs: nowMs };
}

/** Stores a proposal priced at the tier's price now, for its Start; undefined when the duration is no tier. */
export async function saveKeepDraft(
  keep: { store: Pick<KeepStore, "saveDraft"> },
  nowMs: number,
  pricing: Pricing,
  input: KeepDraftInput,
): Promise<KeepDraft | undefined> {
  const draft = priceKeepDraft(pricing, nowMs, input, randomBytes(6).toString("hex"));
  if (draft === undefined) return undefined;
  await keep.store.saveDraft(draft);
  return draft;
}

/**
 * A plan proposed from a reminder or a card is one tap from Start: it carries a cap, the chat's
 * daily limit when that is lower than one day of renewals at today's price, else that day.
 */
export function withDefaultCap(input: KeepDraftInput, pricing: Pricing, chatDailyCapSun: string | undefined): KeepDraftInput {
  const tier = pricing.tiers.find((t) => t.durationSec === input.durationSec);
  if (tier === undefined) return input;
  const slotSun = BigInt(input.amount) * BigInt(tier.unitPriceSun);
  const { slotsPerDay } = keepDayAllowance({ slotSun, durationSec: input.durationSec, activeHours: input.activeHours });
  const { capSun, chosen } = defaultKeepCap(slotsPerDay, slotSun, chatDailyCapSun);
  return { ...input, dailyCapSun: capSun.toString(), capChosen: chosen };
}

/** A form's choice of limits: each a preset, a typed cap, or none (`"="` keeps what an edited plan has). */
export interface KeepLimitsChoice {
  until: KeepWindowPreset | null | "=";
  hours: KeepWindowPreset | null | "=";
  /** A cap as typed (`"200"`), null for none, `"="` for what an edited plan has. */
  cap: string | null;
}

/** The typed options a form's choice stands for: what `/keep` would be sent, read by the same parser. */
function keepChoiceOptionsText(choice: KeepLimitsChoice): string | undefined {
  const words: string[] = [];
  for (const [option, value] of [
    ["until", choice.until],
    ["hours", choice.hours],
  ] as const) {
    if (value === null || value === "=") continue;
    const preset = KEEP_WINDOW_PRESETS[value];
    if (preset.option !== option) return undefined;
    words.push(preset.text);
  }
  if (choice.cap !== null && choice.cap !== "=") {
    // One word, so it cannot carry another option with it.
    if (!/^\S{1,20}$/.test(choice.cap) || choice.cap.includes("=")) return undefined;
    words.push(`cap=${choice.cap}`);
  }
  return words.join(" ");
}

export type KeepFormParse = { ok: true; input: KeepDraftInput } | Exclude<KeepParse, { ok: true }> | { ok: false; reason: "bad_request" };

/**
 * A plan chosen in a form (the Mini App's New plan): the receiver typed or picked (an address or a label), an
 * amount, a duration and the limits, checked as `/keep`'s one-shot checks them: the address book's resolver,
 * the service's amount bounds, a tier's duration, and `parseKeepOptions` in the chat's zone and language.
 */
export async function readKeepForm(
  pricing: Pricing,
  resolve: ReceiverResolver,
  form: { chatId: number; receiver: string; amount: number; durationSec: number; limits: KeepLimitsChoice },
  context: { nowMs: number; locale: string; chatZone: string },
): Promise<KeepFormParse> {
  const address = await resolve(form.receiver);
  if (address === undefined) return { ok: false, reason: "bad_receiver", value: form.receiver };
  const amount = checkAmount(String(form.amount), pricing, context.locale);
  if (!amount.ok) {
    return amount.reason === "bad_amount"
      ? { ok: false, reason: "bad_amount", value: String(form.amount) }
      : { ok: false, reason: "amount_out_of_range", value: String(form.amount), min: amount.min, max: amount.max };
  }
  if (!pricing.tiers.some((t) => t.durationSec === form.durationSec)) return { ok: false, reason: "bad_duration", value: `${form.durationSec}s` };
  if (form.limits.until === "=" || form.limits.hours === "=" || form.limits.cap === "=") return { ok: false, reason: "bad_request" };
  const text = keepChoiceOptionsText(form.limits);
  if (text === undefined) return { ok: false, reason: "bad_request" };
  const read = parseKeepOptions(text, context.nowMs, context.locale, context.chatZone);
  if (!read.ok) return read;
  return { ok: true, input: keepDraftInput({ chatId: form.chatId, address, amount: amount.amount, durationSec: form.durationSec }, read.options) };
}

/** The limits an edit leaves a plan with: the ones chosen anew read as `/keep` reads them (in the plan's own zone), the rest kept. */
export type KeepLimits = Pick<KeepOptions, "endsAtMs" | "dailyCapSun" | "activeHours">;
export type KeepEditParse = { ok: true; limits: KeepLimits } | Extract<KeepParse, { reason: "bad_option" }> | { ok: false; reason: "bad_request" };

export function readKeepEdit(
  current: { endsAtMs?: number | undefined; dailyCapSun?: string | undefined; activeHours?: KeepOptions["activeHours"]; timeZone: string },
  choice: KeepLimitsChoice,
  context: { nowMs: number; locale: string },
): KeepEditParse {
  const text = keepChoiceOptionsText(choice);
  if (text === undefined) return { ok: false, reason: "bad_request" };
  const read = parseKeepOptions(text, context.nowMs, context.locale, current.timeZone);
  if (!read.ok) return read;
  const { options } = read;
  const limits: KeepLimits = {};
  const endsAtMs = choice.until === "=" ? current.endsAtMs : options.endsAtMs;
  const dailyCapSun = choice.cap === "=" ? (current.dailyCapSun === undefined ? undefined : BigInt(current.dailyCapSun)) : options.dailyCapSun;
  const activeHours = choice.hours === "=" ? current.activeHours : options.activeHours;
  if (endsAtMs !== undefined) limits.endsAtMs = endsAtMs;
  if (dailyCapSun !== undefined) limits.dailyCapSun = dailyCapSun;
  if (activeHours !== undefined) limits.activeHours = activeHours;
  return { ok: true, limits };
}
