import type { ConversationData, VersionedState } from "@grammyjs/conversations";
import type { Logger } from "pino";
import type { StoreBackend } from "../core/store/types.js";
import type { Vault } from "../core/vault.js";

/** The vault field of conversation state: it opens as nothing else, and nothing else opens as it. */
const CONVERSATION_FIELD = "conversation";

export interface ConversationStorageDeps {
  store: StoreBackend;
  vault: Pick<Vault, "seal" | "open">;
  logger: Logger;
  /** Bump whenever a conversation's code changes: older states are then dropped. */
  version: number;
  /** Abandoned conversations disappear after this long. */
  ttlMs: number;
}

/**
 * Conversation state in the store (namespace "conversations"), sealed by the
 * vault with the chat id: the replay log holds every update of the flow,
 * including the message that carried an API key, so it must never be stored
 * in plaintext.
 */
export function createConversationStorage(deps: ConversationStorageDeps) {
  const kv = deps.store.namespace("conversations");
  const logger = deps.logger.child({ component: "conversation-storage" });
  return {
    type: "key" as const,
    version: deps.version,
    adapter: {
      async read(key: string): Promise<VersionedState<ConversationData> | undefined> {
        const sealed = await kv.get<string>(key);
        if (typeof sealed !== "string") return undefined;
        try {
          return JSON.parse(deps.vault.open(sealed, key, CONVERSATION_FIELD).plaintext) as VersionedState<ConversationData>;
        } catch (error) {
          // Sealed for another chat, under a retired vault key, or damaged: the flow starts over.
          logger.warn({ key, reason: error instanceof SyntaxError ? "not-json" : "does-not-open" }, "unreadable conversation state dropped");
          await kv.delete(key);
          return undefined;
        }
      },
      async write(key: string, state: VersionedState<ConversationData>): Promise<void> {
        await kv.set(key, deps.vault.seal(JSON.stringify(state), key, CONVERSATION_FIELD), deps.ttlMs);
      },
      async delete(key: string): Promise<void> {
        await kv.delete(key);
      },
    },
  };
}
