import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore, type RecordReads } from "../platform/store/record-store.js";
import type { StoreBackend } from "../platform/store/types.js";
import { isValidTronAddress } from "./tron/index.js";

/**
 * A chat's address book: addresses the user named ("main wallet"), kept
 * until the user deletes them, and the most recent unlabelled receivers,
 * offered as buttons in /order. Only unlabelled entries are evicted, oldest
 * use first; a label works in place of its address everywhere, ignoring case.
 */

/** Unlabelled recent receivers kept per chat. */
export const ADDRESS_BOOK_LIMIT = 20;
/** Labelled entries per chat: enough for a business, small enough to page through. */
export const LABELLED_LIMIT = 100;
export const LABEL_MAX_LENGTH = 32;

const entrySchema = z.object({
  address: z.string(),
  label: z.string().max(LABEL_MAX_LENGTH).optional(),
  lastUsedMs: z.number().int(),
});
export type AddressBookEntry = z.infer<typeof entrySchema>;
const bookSchema = z.object({ entries: z.array(entrySchema) });

export type LabelRefusal = "label_empty" | "label_too_long" | "label_looks_like_address" | "label_taken";
export type AddressBookRefusal = "bad_address" | "book_full" | "not_found" | LabelRefusal;
export type AddressBookResult = { ok: true; entry: AddressBookEntry } | { ok: false; reason: AddressBookRefusal };

export interface AddressBook {
  /** Every entry, most recently used first. */
  list(chatId: number): Promise<AddressBookEntry[]>;
  /** Only the labelled entries, by label (for the /addresses list). */
  labelled(chatId: number): Promise<AddressBookEntry[]>;
  /** Moves (or adds) a receiver to the top, keeping its label. */
  remember(chatId: number, address: string, nowMs: number): Promise<void>;
  /** Saves `address` under `label` (a new entry, or a new name for an existing one). */
  add(chatId: number, address: string, label: string, nowMs: number): Promise<AddressBookResult>;
  /** Gives the saved `address` a new label. */
  rename(chatId: number, address: string, label: string): Promise<AddressBookResult>;
  /** Removes the address with its label; false when it was not in the book. */
  delete(chatId: number, address: string): Promise<boolean>;
  /** The entry saved under `label` (case-insensitive), if any. */
  findByLabel(chatId: number, label: string): Promise<AddressBookEntry | undefined>;
  /** An address as typed, or the address a label names; undefined for neither. */
  resolve(chatId: number, text: string): Promise<string | undefined>;
  labelOf(chatId: number, address: string): Promise<string | undefined>;
  /** address → label, for showing labels beside addresses. */
  labels(chatId: number): Promise<Map<string, string>>;
}

export interface AddressBookDeps {
  store: StoreBackend;
  logger: Logger;
  /** The book read once per unit of work (an update, a tracked change), or kept across units (`RecordReads`). */
  reads?: RecordReads;
}

/** Trims and collapses whitespace; `undefined` for an empty or too long label. */
export function normalizeLabel(text: string | undefined): string | undefined {
  const label = text?.replace(/\s+/g, " ").trim();
  if (!label || label.length > LABEL_MAX_LENGTH) return undefined;
  return label;
}

/** Base58 text as long as an address: read as a (mistyped) address, so it cannot be a label. */
const ADDRESS_SHAPED = /^[1-9A-HJ-NP-Za-km-z]{25,}$/;

/** The cleaned label, or why it cannot be one (ignoring whether the chat uses it already). */
export function checkLabel(text: string): { ok: true; label: string } | { ok: false; reason: LabelRefusal } {
  const label = text.replace(/\s+/g, " ").trim();
  if (!label) return { ok: false, reason: "label_empty" };
  if (isValidTronAddress(label) || ADDRESS_SHAPED.test(label)) return { ok: false, reason: "label_looks_like_address" };
  if (label.length > LABEL_MAX_LENGTH) return { ok: false, reason: "label_too_long" };
  return { ok: true, label };
}

/** Labelled entries all stay; unlabelled ones beyond the limit go, oldest use first. */
function evict(entries: AddressBookEntry[]): AddressBookEntry[] {
  const sorted = [...entries].sort((a, b) => b.lastUsedMs - a.lastUsedMs);
  let unlabelled = 0;
  return sorted.filter((e) => e.label !== undefined || (unlabelled += 1) <= ADDRESS_BOOK_LIMIT);
}

const sameLabel = (a: string | undefined, b: string): boolean => a?.toLowerCase() === b.toLowerCase();

export function createAddressBook({ store, logger, reads }: AddressBookDeps): AddressBook {
  const records = createRecordStore({
    kv: store.namespace("address-book"),
    schema: bookSchema,
    version: 1,
    logger,
    name: "address-book",
    ...reads,
  });
  const key = (chatId: number): string => String(chatId);
  const entriesOf = async (chatId: number) => (await records.get(key(chatId)))?.entries ?? [];

  /** Sets the label of `address` in one atomic update; `nowMs` adds the entry when missing. */
  async function setLabel(chatId: number, address: string, text: string, nowMs: number | undefined): Promise<AddressBookResult> {
    if (!isValidTronAddress(address)) return { ok: false, reason: "bad_address" };
    const checked = checkLabel(text);
    if (!checked.ok) return checked;
    const { label } = checked;
    let result: AddressBookResult = { ok: false, reason: "not_found" };
    await records.update(key(chatId), (current) => {
      const entries = current?.entries ?? [];
      const old = entries.find((e) => e.address === address);
      if (!old && nowMs === undefined) return { entries };
      if (entries.some((e) => e.address !== address && sameLabel(e.label, label))) {
        result = { ok: false, reason: "label_taken" };
        return { entries };
      }
      if (old?.label === undefined && entries.filter((e) => e.label !== undefined).length >= LABELLED_LIMIT) {
        result = { ok: false, reason: "book_full" };
        return { entries };
      }
      const entry: AddressBookEntry = { address, label, lastUsedMs: old?.lastUsedMs ?? nowMs ?? 0 };
      result = { ok: true, entry };
      return { entries: evict([entry, ...entries.filter((e) => e.address !== address)]) };
    });
    return result;
  }

  const book: AddressBook = {
    list: entriesOf,
    async labelled(chatId) {
      return (await entriesOf(chatId)).filter((e) => e.label !== undefined).sort((a, b) => a.label!.localeCompare(b.label!));
    },
    async remember(chatId, address, nowMs) {
      await records.update(key(chatId), (current) => {
        const entries = current?.entries ?? [];
        const old = entries.find((e) => e.address === address);
        const entry: AddressBookEntry = { address, lastUsedMs: nowMs };
        if (old?.label !== undefined) entry.label = old.label;
        return { entries: evict([entry, ...entries.filter((e) => e.address !== address)]) };
      });
    },
    add: (chatId, address, label, nowMs) => setLabel(chatId, address, label, nowMs),
    rename: (chatId, address, label) => setLabel(chatId, address, label, undefined),
    async delete(chatId, address) {
      let found = false;
      await records.update(key(chatId), (current) => {
        const entries = current?.entries ?? [];
        found = entries.some((e) => e.address === address);
        return { entries: entries.filter((e) => e.address !== address) };
      });
      return found;
    },
    async findByLabel(chatId, label) {
      const wanted = label.replace(/\s+/g, " ").trim();
      if (!wanted) return undefined;
      return (await entriesOf(chatId)).find((e) => sameLabel(e.label, wanted));
    },
    async resolve(chatId, text) {
      const trimmed = text.trim();
      if (isValidTronAddress(trimmed)) return trimmed;
      return (await book.findByLabel(chatId, trimmed))?.address;
    },
    async labelOf(chatId, address) {
      return (await entriesOf(chatId)).find((e) => e.address === address)?.label;
    },
    async labels(chatId) {
      return new Map((await entriesOf(chatId)).flatMap((e) => (e.label === undefined ? [] : [[e.address, e.label] as const])));
    },
  };
  return book;
}
