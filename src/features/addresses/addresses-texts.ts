import { type AddressBookEntry } from "../../shared/address-book.js";
import { code, translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import type { InlineKeyboard } from "grammy";
import { ADDRESSES_PAGE_SIZE, createAddressListKeyboard } from "./addresses-keyboards.js";

/** "main wallet — T…" with the full address, as every list and card shows it. */
export function labelledAddressText(tr: Translator, entry: Pick<AddressBookEntry, "address" | "label">): string {
  return entry.label === undefined ? code(entry.address).value : translate(tr, "addresses-entry-line", { label: entry.label, address: code(entry.address) });
}

/** The address book as one card: its text and its buttons. */
export interface AddressListScreen {
  text: string;
  keyboard: InlineKeyboard;
}

export function listScreen(tr: Translator, labelled: readonly AddressBookEntry[], page: number): AddressListScreen {
  const pages = Math.max(1, Math.ceil(labelled.length / ADDRESSES_PAGE_SIZE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const shown = labelled.slice(p * ADDRESSES_PAGE_SIZE, (p + 1) * ADDRESSES_PAGE_SIZE);
  const head = labelled.length === 0 ? translate(tr, "addresses-empty") : translate(tr, "addresses-title", { count: labelled.length, page: p + 1, pages });
  const text = [head, ...shown.map((e) => labelledAddressText(tr, e))].join("\n");
  return { text, keyboard: createAddressListKeyboard(tr, shown, p, pages) };
}
