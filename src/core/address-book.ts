import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "./store/record-store.js";
import type { StoreBackend } from "./store/types.js";

/**
 * Recent order receivers per chat, most recent first, each with an optional
 * label the user gave it ("main wallet"). Offered as buttons in /order and
 * accepted by label in place of the address.
 */

export const ADDRESS_BOOK_LIMIT = 20;
export const LABEL_MAX_LENGTH = 32;

const entrySchema = z.object({
  address: z.string(),
  label: z.string().max(LABEL_MAX_LENGTH).optional(),
  lastUsedMs: z.number().int(),
});
export type AddressBookEntry = z.infer<typeof entrySchema>;
const bookSchema = z.object({ entries: z.array(entrySchema) });

export interface AddressBook {
  list(chatId: number): Promise<AddressBookEntry[]>;
  /** Moves (or adds) the address to the top; a given label replaces the old one. */
  remember(chatId: number, address: string, nowMs: number, label?: string): Promise<void>;
  /** The address saved under `label` (case-insensitive), if any. */
  findByLabel(chatId: number, label: string): Promise<AddressBookEntry | undefined>;
}

export interface AddressBookDeps {
  store: StoreBackend;
  logger: Logger;
}

/** Trims and collapses whitespace; `undefined` for an empty or too long label. */
export function normalizeLabel(text: string | undefined): string | undefined {
  const label = text?.replace(/\s+/g, " ").trim();
  if (!label || label.length > LABEL_MAX_LENGTH) return undefined;
  return label;
}

export function createAddressBook({ store, logger }: AddressBookDeps): AddressBook {
  const records = createRecordStore({ kv: store.namespace("address-book"), schema: bookSchema, version: 1, logger, name: "address-book" });
  const key = (chatId: number): string => String(chatId);

  return {
    async list(chatId) {
      return (await records.get(key(chatId)))?.entries ?? [];
    },
    async remember(chatId, address, nowMs, label) {
      const clean = normalizeLabel(label);
      await records.update(key(chatId), (current) => {
        const entries = current?.entries ?? [];
        const old = entries.find((e) => e.address === address);
        const entry: AddressBookEntry = { address, lastUsedMs: nowMs };
        const keptLabel = clean ?? old?.label;
        if (keptLabel !== undefined) entry.label = keptLabel;
        // A label names one address: taking it for this one frees it elsewhere.
        const rest = entries
          .filter((e) => e.address !== address)
          .map((e) => (clean !== undefined && e.label?.toLowerCase() === clean.toLowerCase() ? { address: e.address, lastUsedMs: e.lastUsedMs } : e));
        return { entries: [entry, ...rest].slice(0, ADDRESS_BOOK_LIMIT) };
      });
    },
    async findByLabel(chatId, label) {
      const wanted = label.trim().toLowerCase();
      if (!wanted) return undefined;
      return (await records.get(key(chatId)))?.entries.find((e) => e.label?.toLowerCase() === wanted);
    },
  };
}
