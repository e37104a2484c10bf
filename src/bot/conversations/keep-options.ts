import { InlineKeyboard } from "grammy";
import { keepDayAllowance } from "../../core/autopilot/keep-allowance.js";
import { parseKeepOptions, type KeepOptions } from "../../core/autopilot/keep-input.js";
import type { KeepPlans } from "../../core/autopilot/keep-plans.js";
import type { KeepDraft } from "../../core/autopilot/keep-store.js";
import { SUN_PER_TRX } from "../../core/money.js";
import type { Pricing } from "../../core/service/schemas.js";
import { cancelData } from "../callback-data/cancel.js";
import { orderStepData } from "../callback-data/order.js";
import type { ConversationContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { echo } from "../helpers/echo.js";
import { editIgnoringUnchanged } from "../helpers/edit.js";
import { formatTrx } from "../helpers/format.js";
import { HTML, translate } from "../helpers/html.js";
import { saveKeepDraft, type KeepDraftInput } from "../helpers/keep-propose.js";
import { keepDraftText } from "../helpers/keep-text.js";
import type { Translator } from "../helpers/record-text.js";
import { closeStepPrompt, sendStepPrompt } from "../helpers/step-prompt.js";
import { createKeepDraftKeyboard } from "../keyboards/keep.js";
import { waitStep, type FlowConversation } from "./order-steps.js";

/** What the plan buys, chosen in the steps before its limits. */
export interface KeepPlanChoice {
  flow: string;
  chatId: number;
  address: string;
  amount: number;
  durationSec: number;
  pricing: Pricing;
  locale: string;
}

/**
 * The window presets, each the typed option it stands for: a tap is read exactly as typing it is
 * (`parseKeepOptions`), in the chat's zone. "Tonight" ends at 23:59, so the proposal names today.
 */
const WINDOW_PRESETS = {
  t: { option: "until", text: "until=23:59", label: "keep-options-tonight-button" },
  d: { option: "until", text: "until=24h", label: "keep-options-day-button" },
  h: { option: "hours", text: "hours=09:00-18:00", label: "keep-options-work-button" },
} as const;
type WindowPreset = keyof typeof WINDOW_PRESETS;
const isWindowPreset = (value: string): value is WindowPreset => Object.hasOwn(WINDOW_PRESETS, value);

/** The options chosen by taps, one typed `name=value` each (a later tap of the same option replaces it). */
type Chosen = ReadonlyMap<string, string>;

const optionsText = (chosen: Chosen): string => [...chosen.values()].join(" ");

/** Round amounts (1, 2 and 5 × 10ⁿ TRX) from the one just below what a day of the plan costs to the first three that cover it. */
function capPresetsTrx(daySun: bigint): number[] {
  const round: number[] = [];
  for (let power = 1; power <= 1_000_000_000; power *= 10) round.push(power, 2 * power, 5 * power);
  const covering = round.findIndex((trx) => BigInt(trx) * SUN_PER_TRX >= daySun);
  const first = covering < 0 ? round.length - 4 : Math.max(0, covering - 1);
  return round.slice(first, first + 4);
}

function draftInputOf(plan: KeepPlanChoice, options: KeepOptions): KeepDraftInput {
  return {
    chatId: plan.chatId,
    address: plan.address,
    amount: plan.amount,
    durationSec: plan.durationSec,
    timeZone: options.timeZone,
    ...(options.endsAtMs === undefined ? {} : { endsAtMs: options.endsAtMs }),
    ...(options.dailyCapSun === undefined ? {} : { dailyCapSun: options.dailyCapSun.toString() }),
    ...(options.activeHours === undefined ? {} : { activeHours: options.activeHours }),
  };
}

/** The plan as it would be proposed now: what the step shows above its buttons. Never stored. */
function previewDraft(plan: KeepPlanChoice, options: KeepOptions, nowMs: number): KeepDraft {
  const unitPriceSun = plan.pricing.tiers.find((t) => t.durationSec === plan.durationSec)?.unitPriceSun ?? 0;
  return { ...draftInputOf(plan, options), draftId: "000000000000", unitPriceSun, createdAtMs: nowMs };
}

function optionsKeyboard(tr: Translator, plan: KeepPlanChoice, chosen: Chosen, preview: KeepDraft): InlineKeyboard {
  const { flow, locale } = plan;
  const marked = (on: boolean, label: string) => (on ? tr.t("keep-options-chosen", { label }) : label);
  const button = (action: string, value: string | number) => orderStepData.pack({ flow, action, value });
  const kb = new InlineKeyboard();
  (["t", "d", "h"] as const).forEach((preset) => {
    const { option, text, label } = WINDOW_PRESETS[preset];
    kb.text(marked(chosen.get(option) === text, tr.t(label)), button("w", preset));
    if (preset === "d") kb.row();
  });
  kb.row();
  // What a whole day costs without a cap, within the hours chosen: the amounts offered around it.
  const slotSun = BigInt(plan.amount) * BigInt(preview.unitPriceSun);
  const { daySun } = keepDayAllowance({ slotSun, durationSec: plan.durationSec, activeHours: preview.activeHours });
  for (const trx of capPresetsTrx(daySun)) {
    const capTrx = formatTrx(BigInt(trx) * SUN_PER_TRX, locale);
    kb.text(marked(chosen.get("cap") === `cap=${trx}`, tr.t("keep-options-cap-button", { capTrx })), button("p", trx));
  }
  return kb
    .row()
    .text(tr.t("keep-options-custom-button"), button("c", 0))
    .text(tr.t(chosen.size === 0 ? "keep-options-none-button" : "keep-options-done-button"), button("k", 0))
    .row()
    .text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}

/**
 * The last step of the guided /keep: the plan as it would be proposed, with its limits one tap each
 * (until tonight, for 24 h, working hours, a daily cap around what a day costs), combinable, each tap
 * drawing the same message again; ✏️ Custom explains the typed options, which are read as `/keep` reads
 * them and join the ones tapped. ✅ Done (or "until I stop it, no limits" before any tap) or typed
 * options answer the question (it keeps its answer, its buttons go) and the proposal with Start follows.
 */
export async function proposeKeepPlan(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: BotDeps & { keep: KeepPlans },
  plan: KeepPlanChoice,
): Promise<void> {
  const { chatId, locale, flow } = plan;
  // A plan without tz= counts its days and hours where the chat's times are shown.
  const chatZone = await conversation.external(() => deps.flows.limits.timeZoneOf(chatId));
  const chosen = new Map<string, string>();
  const read = (text: string, nowMs: number) => parseKeepOptions(text, nowMs, locale, chatZone);
  const draw = async (tr: Translator) => {
    const nowMs = await conversation.now();
    // The taps are read as typed options are; what they make is always readable.
    const parsed = read(optionsText(chosen), nowMs);
    const options = parsed.ok ? parsed.options : { timeZone: chatZone };
    const preview = previewDraft(plan, options, nowMs);
    const text = `${translate(tr, "keep-ask-options")}\n\n${keepDraftText(tr, preview, { nowMs, locale, timeZone: chatZone })}`;
    return { text, options: { ...HTML, reply_markup: optionsKeyboard(tr, plan, chosen, preview) } };
  };
  const question = translate(ctx, "keep-ask-options");
  const first = await draw(ctx);
  const prompt = await sendStepPrompt(conversation, ctx, first.text, first.options);

  for (;;) {
    const input = await waitStep(conversation, flow, "options");
    if (input.kind === "button" && input.action === "c") {
      await ctx.reply(translate(ctx, "keep-options-custom"), HTML);
      continue;
    }
    if (input.kind === "button" && (input.action === "w" || input.action === "p")) {
      const tapped = input.action === "w" ? (isWindowPreset(input.value) ? WINDOW_PRESETS[input.value] : undefined) : capPreset(input.value);
      if (tapped === undefined) continue;
      // A second tap on a chosen limit takes it back.
      const next = new Map(chosen);
      if (next.get(tapped.option) === tapped.text) next.delete(tapped.option);
      else next.set(tapped.option, tapped.text);
      // Read as typed: a combination `/keep` would refuse (a forged amount) is not taken.
      if (!read(optionsText(next), await conversation.now()).ok) continue;
      chosen.clear();
      for (const [option, text] of next) chosen.set(option, text);
      const shown = await draw(input.ctx);
      await editIgnoringUnchanged(() => input.ctx.editMessageText(shown.text, shown.options));
      continue;
    }
    if (input.kind === "button" && input.action === "k") {
      const parsed = read(optionsText(chosen), await conversation.now());
      if (!parsed.ok) continue;
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: chosenAnswer(ctx, plan, chosen) });
      await propose(parsed.options);
      return;
    }
    if (input.kind !== "text") continue;
    // Typed options join the tapped ones; typed last, they win where both name the same option.
    const parsed = read(`${optionsText(chosen)} ${input.text}`, await conversation.now());
    if (!parsed.ok || parsed.rest.length > 0) {
      await ctx.reply(
        translate(ctx, parsed.ok ? "keep-bad-unknown" : `keep-bad-${parsed.option}`, { value: echo(parsed.ok ? parsed.rest.join(" ") : parsed.value) }),
        HTML,
      );
      continue;
    }
    const answer = chosen.size === 0 ? input.text.trim() : `${chosenAnswer(ctx, plan, chosen)} · ${input.text.trim()}`;
    await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer });
    await propose(parsed.options);
    return;
  }

  /** The proposal, stored and sent with Start; said instead when its duration is no tier any more. */
  async function propose(options: KeepOptions): Promise<void> {
    const draft = await conversation.external(() => saveKeepDraft(deps.keep, deps.flows.now(), plan.pricing, draftInputOf(plan, options)));
    if (draft === undefined) {
      await ctx.reply(translate(ctx, "keep-usage", { durations: "-" }), HTML);
      return;
    }
    const nowMs = await conversation.now();
    await ctx.reply(keepDraftText(ctx, draft, { nowMs, locale, timeZone: chatZone }), { ...HTML, reply_markup: createKeepDraftKeyboard(ctx, draft.draftId) });
  }
}

/** The limits tapped, as their buttons name them, for the answered question ("🌙 Until tonight · 🧢 500 TRX/day"). */
function chosenAnswer(tr: Translator, plan: KeepPlanChoice, chosen: Chosen): string {
  const labels = Object.values(WINDOW_PRESETS)
    .filter(({ option, text }) => chosen.get(option) === text)
    .map(({ label }) => tr.t(label));
  const cap = /^cap=(\d+)$/.exec(chosen.get("cap") ?? "")?.[1];
  if (cap !== undefined) labels.push(tr.t("keep-options-cap-button", { capTrx: formatTrx(BigInt(cap) * SUN_PER_TRX, plan.locale) }));
  return labels.length === 0 ? tr.t("keep-options-none-button") : labels.join(" · ");
}

/** A cap button's amount as the typed option (`cap=200`); undefined for anything but whole TRX. */
function capPreset(value: string): { option: "cap"; text: string } | undefined {
  return /^[1-9]\d{0,9}$/.test(value) ? { option: "cap", text: `cap=${value}` } : undefined;
}
