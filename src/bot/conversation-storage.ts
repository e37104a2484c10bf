import type { ConversationData, VersionedState } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { Logger } from "pino";
import type { StoreBackend } from "../platform/store/types.js";
import type { Vault } from "../shared/vault.js";

/** The vault field of conversation state: it opens as nothing else, and nothing else opens as it. */
const CONVERSATION_FIELD = "conversation";

/** Chats remembered without a conversation; past this many the memory starts over (reads again, never wrong). */
const ABSENT_MEMORY_LIMIT = 50_000;

export interface ConversationStorageDeps {
  store: StoreBackend;
  vault: Pick<Vault, "seal" | "open">;
  logger: Logger;
  /** Bump whenever a conversation's code changes: older states are then dropped. */
  version: number;
  /** Abandoned conversations disappear after this long. */
  ttlMs: number;
  /**
   * This process is the only one writing conversation state to the store
   * (SQLite, and Postgres, where one process holds the store): a chat read
   * without a conversation is remembered as such until this process writes
   * one, so most updates read no conversation state at all. False on Redis,
   * where other processes may start a chat's conversation.
   */
  soleWriter: boolean;
}

/**
 * Conversation state in the store (namespace "conversations", key = chat id),
 * sealed by the vault with the chat id: the replay log holds every update of
 * the flow, including the message that carried an API key, so it must never
 * be stored in plaintext. An update without a chat (an inline query, a button
 * under an inline message) has no conversation: nothing is read or written
 * for it.
 */
export function createConversationStorage(deps: ConversationStorageDeps) {
  const kv = deps.store.namespace("conversations");
  const logger = deps.logger.child({ component: "conversation-storage" });
  /** Chats read without state since this process last wrote theirs (only with `soleWriter`). */
  const absent = new Set<string>();
  /** Bumped by every write and delete: a read that overlapped one does not remember an absence. */
  let writes = 0;
  const keyOf = (ctx: Context): string | undefined => ctx.chatId?.toString();

  async function read(key: string): Promise<VersionedState<ConversationData> | undefined> {
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
  }

  function rememberAbsent(key: string): void {
    if (absent.size >= ABSENT_MEMORY_LIMIT) absent.clear();
    absent.add(key);
  }

  return {
    type: "context" as const,
    version: deps.version,
    adapter: {
      async read(ctx: Context): Promise<VersionedState<ConversationData> | undefined> {
        const key = keyOf(ctx);
        if (key === undefined || absent.has(key)) return undefined;
        const before = writes;
        const state = await read(key);
        if (state === undefined && deps.soleWriter && before === writes) rememberAbsent(key);
        return state;
      },
      async write(ctx: Context, state: VersionedState<ConversationData>): Promise<void> {
        const key = keyOf(ctx);
        if (key === undefined) return;
        // Forgotten before the write: a failed write leaves the chat read again, never skipped.
        writes += 1;
        absent.delete(key);
        await kv.set(key, deps.vault.seal(JSON.stringify(state), key, CONVERSATION_FIELD), deps.ttlMs);
      },
      async delete(ctx: Context): Promise<void> {
        const key = keyOf(ctx);
        if (key === undefined) return;
        writes += 1;
        absent.delete(key);
        await kv.delete(key);
      },
    },
  };
}
