import type { Logger } from "pino";
import { z } from "zod";
import { createChatIndex } from "../../platform/store/chat-index.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { activeHoursSchema, keepPlanSchema, type KeepPlan } from "./keep-plan.js";

/** A plan the user was shown with its price and has not confirmed yet. */
export const keepDraftSchema = z.object({
  draftId: z.string().regex(/^[0-9a-f]{12}$/),
  chatId: z.number().int(),
  address: z.string(),
  amount: z.number().int().positive(),
  durationSec: z.number().int().positive(),
  endsAtMs: z.number().int().optional(),
  dailyCapSun: z.string().regex(/^\d+$/).optional(),
  activeHours: activeHoursSchema.optional(),
  timeZone: z.string(),
  unitPriceSun: z.number().int().nonnegative(),
  createdAtMs: z.number().int(),
  /** The cap was proposed by the bot, not named by the user: the chat's daily limit, or one day of renewals. */
  capChosen: z.enum(["limit", "day"]).optional(),
});
export type KeepDraft = z.infer<typeof keepDraftSchema>;

export const KEEP_DRAFT_TTL_MS = 30 * 60_000;
/** A chat's plans, newest first; older ones fall off the list (stopped long ago). */
export const KEEP_PLANS_PER_CHAT = 20;
const INDEX_TTL_MS = 10 * 365 * 86_400_000;

export interface KeepStore {
  get(planId: string): Promise<KeepPlan | undefined>;
  create(plan: KeepPlan): Promise<void>;
  /** Read-modify-write of one plan (serialized in this process; across processes the plan's lease serializes the scheduler). */
  update(planId: string, fn: (current: KeepPlan) => KeepPlan | Promise<KeepPlan>): Promise<KeepPlan | undefined>;
  /** Every stored plan (the scheduler's scan). */
  all(): AsyncIterable<[string, KeepPlan]>;
  ofChat(chatId: number): Promise<KeepPlan[]>;
  saveDraft(draft: KeepDraft): Promise<void>;
  getDraft(draftId: string): Promise<KeepDraft | undefined>;
  deleteDraft(draftId: string): Promise<void>;
}

export function createKeepStore({ store, logger }: { store: StoreBackend; logger: Logger }): KeepStore {
  const plans = createRecordStore({ kv: store.namespace("keep-plans"), schema: keepPlanSchema, version: 1, logger, name: "keep-plans" });
  const drafts = createRecordStore({ kv: store.namespace("keep-drafts"), schema: keepDraftSchema, version: 1, logger, name: "keep-drafts" });
  const byChat = createChatIndex(store.namespace("keep-plans-by-chat"), { max: KEEP_PLANS_PER_CHAT, ttlMs: INDEX_TTL_MS });
  return {
    get: (planId) => plans.get(planId),
    async create(plan) {
      await plans.set(plan.planId, plan);
      await byChat.add(plan.chatId, plan.planId);
    },
    update: (planId, fn) => plans.update(planId, async (current) => (current === undefined ? undefined : await fn(current))),
    all: () => plans.list(),
    async ofChat(chatId) {
      const found: KeepPlan[] = [];
      for (const id of await byChat.list(chatId)) {
        const plan = await plans.get(id);
        if (plan?.chatId === chatId) found.push(plan);
      }
      return found;
    },
    saveDraft: (draft) => drafts.set(draft.draftId, draft, KEEP_DRAFT_TTL_MS),
    getDraft: (draftId) => drafts.get(draftId),
    async deleteDraft(draftId) {
      await drafts.delete(draftId);
    },
  };
}
