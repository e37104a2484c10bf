import type { StoreBackend } from "../../platform/store/types.js";

/**
 * The one memory of which (chat, item, status) has been announced. The
 * tracker consults it whether a change was seen by polling or because a
 * webhook asked for a re-read, so each status reaches the chat once.
 */
export interface AnnouncedMemory {
  has(key: AnnouncedKey): Promise<boolean>;
  mark(key: AnnouncedKey): Promise<void>;
}

export interface AnnouncedKey {
  chatId: number;
  kind: string;
  id: string;
  status: string;
}

/** Far beyond any tracking horizon; then the rows expire by themselves. */
export const ANNOUNCED_TTL_MS = 7 * 24 * 60 * 60_000;

export function createAnnouncedMemory(store: StoreBackend): AnnouncedMemory {
  const kv = store.namespace("announced");
  const key = (k: AnnouncedKey): string => `${k.chatId}_${k.kind}_${k.id}_${k.status}`;
  return {
    async has(k) {
      return (await kv.get(key(k))) !== undefined;
    },
    async mark(k) {
      await kv.set(key(k), 1, ANNOUNCED_TTL_MS);
    },
  };
}
