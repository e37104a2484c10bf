import { InlineKeyboard } from "grammy";
import type { KeepPlan } from "./keep-plan.js";
import { keepData } from "../../bot/callback-data/keep.js";
import type { Translator } from "../../bot/helpers/record-text.js";

export function createKeepDraftKeyboard(tr: Translator, draftId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("keep-confirm-button"), keepData.pack({ action: "c", id: draftId }))
    .text(tr.t("keep-cancel-button"), keepData.pack({ action: "x", id: draftId }));
}

/** One row per running plan, numbered as in the list text: Pause or Resume, and Stop. */
export function createKeepListKeyboard(tr: Translator, plans: readonly KeepPlan[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  plans.forEach((plan, i) => {
    if (plan.state === "stopped") return;
    const n = i + 1;
    if (plan.state === "active") kb.text(tr.t("keep-pause-n", { n }), keepData.pack({ action: "p", id: plan.planId }));
    else kb.text(tr.t("keep-resume-n", { n }), keepData.pack({ action: "r", id: plan.planId }));
    kb.text(tr.t("keep-stop-n", { n }), keepData.pack({ action: "s", id: plan.planId })).row();
  });
  return kb.text(tr.t("keep-new-button"), keepData.pack({ action: "n", id: "0" })).text(tr.t("keep-refresh-button"), keepData.pack({ action: "l", id: "0" }));
}

/**
 * The plan's card: Pause or Resume, and Stop, while it runs; Refresh always (a stopped plan's card still reads
 * again); ✏️ Edit in app while it runs, when the Mini App is offered (`editUrl`: an https app, a private chat).
 */
export function createKeepCardKeyboard(tr: Translator, plan: KeepPlan, editUrl?: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (plan.state !== "stopped") {
    if (plan.state === "active") kb.text(tr.t("keep-pause-button"), keepData.pack({ action: "p", id: plan.planId }));
    else kb.text(tr.t("keep-resume-button"), keepData.pack({ action: "r", id: plan.planId }));
    kb.text(tr.t("keep-stop-button"), keepData.pack({ action: "s", id: plan.planId })).row();
  }
  kb.text(tr.t("keep-refresh-button"), keepData.pack({ action: "v", id: plan.planId }));
  if (editUrl !== undefined && plan.state !== "stopped") kb.row().webApp(tr.t("keep-edit-app-button"), editUrl);
  return kb;
}

/** Under a "paused for money" notice: Resume tries the slot again at once. */
export function createKeepResumeKeyboard(tr: Translator, planId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("keep-resume-button"), keepData.pack({ action: "r", id: planId }))
    .text(tr.t("keep-stop-button"), keepData.pack({ action: "s", id: planId }));
}
