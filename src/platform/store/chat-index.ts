import { retryOnConflict } from "./retry-conflicts.js";
import type { KeyValue } from "./types.js";

/**
 * The newest ids one chat made of some record kind (quotes, broadcast
 * drafts), so "everything this chat still has open" can be found without a
 * scan. Bounded: older ids fall off, and their records expire on their own.
 */
export interface ChatIndex {
  add(chatId: number, id: string): Promise<void>;
  /** Newest first. */
  list(chatId: number): Promise<string[]>;
  clear(chatId: number): Promise<void>;
}

export function createChatIndex(kv: KeyValue, options: { max: number; ttlMs: number }): ChatIndex {
  const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
  const read = async (chatId: number): Promise<string[]> => idsOf(await kv.get(String(chatId)));
  return {
    // Compare-and-set, like record updates: two processes adding at once both land.
    add(chatId, id) {
      const key = String(chatId);
      return retryOnConflict({ store: "chat-index", id: key }, async () => {
        const stored = await kv.getVersioned(key);
        const ids = [id, ...idsOf(stored.value).filter((v) => v !== id)].slice(0, options.max);
        return { written: await kv.compareAndSet(key, stored.version, ids, options.ttlMs), result: undefined };
      });
    },
    list: read,
    async clear(chatId) {
      await kv.delete(String(chatId));
    },
  };
}
