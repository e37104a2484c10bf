import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * What a deep link asked for while the chat was not linked (`/start
 * order_<amount>_<durationSec>`), kept per chat in the store so it survives
 * the link conversation and a restart, and carried out once right after the
 * chat is linked. A newer deep link replaces an older one.
 */
export const START_INTENT_TTL_MS = 60 * 60_000;

const startIntentSchema = z.object({
  kind: z.literal("order"),
  // As parsed from the link; the order flow checks them against today's limits and tiers.
  amount: z.number().int().nonnegative(),
  durationSec: z.number().int().nonnegative(),
});
export type StartIntent = z.infer<typeof startIntentSchema>;

export interface StartIntents {
  save(chatId: number, intent: StartIntent): Promise<void>;
  peek(chatId: number): Promise<StartIntent | undefined>;
  /** Reads and removes it: a second take (another update, another process) finds nothing. */
  take(chatId: number): Promise<StartIntent | undefined>;
}

export function createStartIntents({ store, logger }: { store: StoreBackend; logger: Logger }): StartIntents {
  const records = createRecordStore({ kv: store.namespace("start-intents"), schema: startIntentSchema, version: 1, logger, name: "start-intents" });
  const key = (chatId: number) => String(chatId);
  return {
    save: (chatId, intent) => records.set(key(chatId), intent, START_INTENT_TTL_MS),
    peek: (chatId) => records.get(key(chatId)),
    async take(chatId) {
      const current = await records.get(key(chatId));
      // Only the caller whose delete removed it carries it out.
      return current !== undefined && (await records.delete(key(chatId))) ? current : undefined;
    },
  };
}
