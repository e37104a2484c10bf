import type { Logger } from "pino";
import { createChatIndex } from "../../platform/store/chat-index.js";
import { createRecordStore, type RecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { QUOTE_RETENTION_MS, quoteSchema, type Quote } from "./quote.js";

export interface QuoteStoreDeps {
  store: StoreBackend;
  logger: Logger;
}

export interface QuoteStore {
  get(quoteId: string): Promise<Quote | undefined>;
  save(quote: Quote): Promise<void>;
  /** Serialized per quote within this process; returning undefined leaves the record as it was. */
  update(quoteId: string, fn: (quote: Quote) => Quote | undefined): Promise<Quote | undefined>;
  /** Ids of the chat's newest quotes, newest first (what /cancel looks through). */
  recentIds(chatId: number): Promise<string[]>;
}

export const QUOTES_NAMESPACE = "quotes";

export function createQuoteStore({ store, logger }: QuoteStoreDeps): QuoteStore {
  const records: RecordStore<Quote> = createRecordStore({
    kv: store.namespace(QUOTES_NAMESPACE),
    schema: quoteSchema,
    version: 1,
    logger,
    name: QUOTES_NAMESPACE,
  });
  const byChat = createChatIndex(store.namespace(`${QUOTES_NAMESPACE}-by-chat`), { max: 20, ttlMs: QUOTE_RETENTION_MS });
  return {
    get: (quoteId) => records.get(quoteId),
    async save(quote) {
      await records.set(quote.quoteId, quote, QUOTE_RETENTION_MS);
      await byChat.add(quote.chatId, quote.quoteId);
    },
    recentIds: (chatId) => byChat.list(chatId),
    update: (quoteId, fn) => records.update(quoteId, (current) => (current === undefined ? undefined : (fn(current) ?? current)), QUOTE_RETENTION_MS),
  };
}
