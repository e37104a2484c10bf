import type { Logger } from "pino";
import { createRecordStore, type RecordStore } from "../store/record-store.js";
import type { StoreBackend } from "../store/types.js";
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
  return {
    get: (quoteId) => records.get(quoteId),
    save: (quote) => records.set(quote.quoteId, quote, QUOTE_RETENTION_MS),
    update: (quoteId, fn) =>
      records.update(quoteId, (current) => (current === undefined ? undefined : (fn(current) ?? current)), QUOTE_RETENTION_MS),
  };
}
