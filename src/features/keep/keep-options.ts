import { InlineKeyboard } from "grammy";
import {
  isKeepWindowPreset,
  KEEP_WINDOW_PRESETS,
  keepCapPresetsTrx,
  keepCapPresetText,
  keepDraftInput,
  keepUncappedDaySun,
  priceKeepDraft,
  saveKeepDraft,
  type KeepWindowPreset,
} from "./keep-proposal.js";
import { parseKeepOptions, type KeepOptions } from "./keep-input.js";
import type { KeepPlans } from "./keep-plans.js";
import type { KeepDraft } from "./keep-store.js";
import { SUN_PER_TRX } from "../../shared/money.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { waitStep, type FlowConversation } from "../../bot/conversations/steps.js";
import { orderStepData } from "../../bot/callback-data/order.js";
import type { ConversationContext } from "../../bot/context.js";
import type { BotDeps } from "../../bot/deps.js";
import { echo } from "../../bot/helpers/echo.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { HTML, translate } from "../../bot/helpers/html.js";
import { keepDraftText } from "./keep-texts.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { closeStepPrompt, sendStepPrompt } from "../../bot/helpers/step-prompt.js";
import { createKeepDraftKeyboard } from "./keep-keyboards.js";

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

/** Each window preset's button: the preset is the typed option it stands for (`KEEP_WINDOW_PRESETS`). */
const WINDOW_LABELS = {
  t: "keep-options-tonight-button",
  d: "keep-options-day-button",
  h: "keep-options-work-button",
} as const satisfies Record<KeepWindowPreset, string>;
const WINDOW_PRESETS = {
  t: { ...KEEP_WINDOW_PRESETS.t, label: WINDOW_LABELS.t },
  d: { ...KEEP_WINDOW_PRESETS.d, label: WINDOW_LABELS.d },
  h: { ...KEEP_WINDOW_PRESETS.h, label: WINDOW_LABELS.h },
} as const;

/** The options chosen by taps, one typed `name=value` each (a later tap of the same option replaces it). */
type Chosen = ReadonlyMap<string, string>;

const optionsText = (chosen: Chosen): string => [...chosen.values()].join(" ");

/** The plan as it would be proposed now: what the step shows above its buttons. Never stored. */
function previewDraft(plan: KeepPlanChoice, options: KeepOptions, nowMs: number): KeepDraft {
  const input = keepDraftInput(plan, options);
  return priceKeepDraft(plan.pricing, nowMs, input) ?? { ...input, draftId: "000000000000", unitPriceSun: 0, createdAtMs: nowMs };
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
  for (const trx of keepCapPresetsTrx(keepUncappedDaySun(preview))) {
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
      const tapped = input.action === "w" ? (isKeepWindowPreset(input.value) ? WINDOW_PRESETS[input.value] : undefined) : capPreset(input.value);
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
    const draft = await conversation.external(() => saveKeepDraft(deps.keep, deps.flows.now(), plan.pricing, keepDraftInput(plan, options)));
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
  const text = keepCapPresetText(value);
  return text === undefined ? undefined : { option: "cap", text };
}
