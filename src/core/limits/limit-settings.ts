import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../store/record-store.js";
import type { StoreBackend } from "../store/types.js";

/**
 * The spend limits a chat set in /limits: caps and the confirm threshold in
 * sun (decimal strings; absent = none) and the Freeze switch. Kept per chat:
 * they guard whatever account the chat is linked to.
 */

const sunText = z.string().regex(/^\d+$/);

const limitSettingsSchema = z.object({
  dailyCapSun: sunText.optional(),
  monthlyCapSun: sunText.optional(),
  /** Above this a confirmation needs a second tap. */
  confirmAboveSun: sunText.optional(),
  frozen: z.boolean(),
  /** IANA zone of the chat's day and month; UTC when absent. */
  timeZone: z.string().optional(),
});
export type LimitSettings = z.infer<typeof limitSettingsSchema>;

/** The amounts /limits sets. */
export type LimitField = "dailyCapSun" | "monthlyCapSun" | "confirmAboveSun";

const NO_LIMITS: LimitSettings = { frozen: false };

export interface LimitSettingsStore {
  get(chatId: number): Promise<LimitSettings>;
  update(chatId: number, fn: (current: LimitSettings) => LimitSettings): Promise<LimitSettings>;
}

export function createLimitSettingsStore({ store, logger }: { store: StoreBackend; logger: Logger }): LimitSettingsStore {
  const records = createRecordStore({ kv: store.namespace("spend-limits"), schema: limitSettingsSchema, version: 1, logger, name: "spend-limits" });
  return {
    async get(chatId) {
      return (await records.get(String(chatId))) ?? NO_LIMITS;
    },
    async update(chatId, fn) {
      return (await records.update(String(chatId), (current) => fn(current ?? NO_LIMITS))) ?? NO_LIMITS;
    },
  };
}
