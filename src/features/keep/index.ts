/**
 * /keep: keep-charged plans (docs/autopilot.md). The app builds them with `createKeepModule` (the plans, their
 * cards, notices and daily summaries); the bot lists the command and its conversation.
 */
export { createKeepModule } from "./keep-module.js";
export type { KeepPlans, PlanAction } from "./keep-plans.js";
// The balance watch's low-balance threshold counts the next renewals, read from the stored plans.
export { createRenewalCosts } from "./keep-plans.js";
export type { KeepDaySummaries } from "./keep-day-summary.js";
export { createKeepFeature } from "./keep-feature.js";
export { createKeepConversation } from "./keep-conversation.js";
export { createKeepCardOpener, type KeepCardOpener } from "./keep-card-opener.js";
// What another face of /keep (the Mini App's Keep charged screen) reads and calls, exactly as the chat does.
export { formatHours, parseActiveHours, type KeepPlan } from "./keep-plan.js";
export type { KeepDraft } from "./keep-store.js";
export {
  KEEP_WINDOW_PRESETS,
  keepCapPresetsTrx,
  keepUncappedDaySun,
  priceKeepDraft,
  readKeepEdit,
  readKeepForm,
  saveKeepDraft,
  type KeepLimitsChoice,
  type KeepWindowPreset,
} from "./keep-proposal.js";
export { keepCardText, keepDraftText, keepEditText, keepTime } from "./keep-texts.js";
