import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore, type RecordReads } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * The spend limits set in /limits: caps and the confirm threshold in sun
 * (decimal strings; absent = none) and the Freeze switch are the account's,
 * one set for every chat linked to it (record `@<account id>`); the time zone
 * is the chat's own (record `<chat id>`). A chat not linked keeps all of it
 * in its own record. Before limits were the account's they were all the
 * chat's: until the account has its record, a chat reads its own caps, and
 * the first change made from a chat starts the account's record from them.
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

export interface LimitSettingsDeps {
  store: StoreBackend;
  logger: Logger;
  /** The account a chat is linked to now; without it every setting is the chat's. */
  accountOf?: (chatId: number) => Promise<string | undefined>;
  /** The settings read once per unit of work, or kept across units (`RecordReads`). */
  reads?: RecordReads;
}

function withZone(settings: LimitSettings, timeZone: string | undefined): LimitSettings {
  const { timeZone: _other, ...shared } = settings;
  return timeZone === undefined ? shared : { ...shared, timeZone };
}

export function createLimitSettingsStore({ store, logger, accountOf, reads }: LimitSettingsDeps): LimitSettingsStore {
  const records = createRecordStore({
    kv: store.namespace("spend-limits"),
    schema: limitSettingsSchema,
    version: 1,
    logger,
    name: "spend-limits",
    ...reads,
  });
  return {
    async get(chatId) {
      const accountId = await accountOf?.(chatId);
      // The chat's own record (its time zone) and the account's shared one, in one store call.
      const [own = NO_LIMITS, shared] =
        accountId === undefined ? [await records.get(String(chatId))] : await records.getMany([String(chatId), `@${accountId}`]);
      return shared === undefined ? own : withZone(shared, own.timeZone);
    },
    async update(chatId, fn) {
      const accountId = await accountOf?.(chatId);
      if (accountId === undefined) return (await records.update(String(chatId), (current) => fn(current ?? NO_LIMITS))) ?? NO_LIMITS;
      const own = (await records.get(String(chatId))) ?? NO_LIMITS;
      let next: LimitSettings = own;
      await records.update(`@${accountId}`, (shared) => {
        next = fn(withZone(shared ?? own, own.timeZone));
        return withZone(next, undefined);
      });
      if (next.timeZone !== own.timeZone) await records.update(String(chatId), (current) => withZone(current ?? NO_LIMITS, next.timeZone));
      return next;
    },
  };
}
