import { randomBytes } from "node:crypto";
import type { KeepPlans } from "../../core/autopilot/keep-plans.js";
import type { KeepDraft } from "../../core/autopilot/keep-store.js";
import type { Pricing } from "../../core/service/schemas.js";

export type KeepDraftInput = Omit<KeepDraft, "draftId" | "createdAtMs" | "unitPriceSun">;

/** Stores a proposal priced at the tier's price now; undefined when the duration is no tier. JSON, so a conversation can keep it. */
export async function saveKeepDraft(keep: Pick<KeepPlans, "store">, nowMs: number, pricing: Pricing, input: KeepDraftInput): Promise<KeepDraft | undefined> {
  const tier = pricing.tiers.find((t) => t.durationSec === input.durationSec);
  if (tier === undefined) return undefined;
  const draft: KeepDraft = { ...input, draftId: randomBytes(6).toString("hex"), unitPriceSun: tier.unitPriceSun, createdAtMs: nowMs };
  await keep.store.saveDraft(draft);
  return draft;
}
