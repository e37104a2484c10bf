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
  const read = async (chatId: number): Promise<string[]> => {
    const value = await kv.get(String(chatId));
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  };
  return {
    async add(chatId, id) {
      const ids = [id, ...(await read(chatId)).filter((v) => v !== id)].slice(0, options.max);
      await kv.set(String(chatId), ids, options.ttlMs);
    },
    list: read,
    async clear(chatId) {
      await kv.delete(String(chatId));
    },
  };
}
