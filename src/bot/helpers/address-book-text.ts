import { LABEL_MAX_LENGTH, LABELLED_LIMIT, type AddressBookEntry, type AddressBookRefusal } from "../../core/address-book.js";
import { echo } from "./echo.js";
import { code, translate } from "./html.js";
import type { Translator } from "./record-text.js";

/** Why the book refused an address or label, naming what was typed. */
export function addressBookRefusalText(tr: Translator, reason: AddressBookRefusal, typed: string): string {
  return translate(tr, `addresses-refused-${reason.replace(/_/g, "-")}`, { value: echo(typed), max: LABEL_MAX_LENGTH, limit: LABELLED_LIMIT });
}

/** "main wallet — T…" with the full address, as every list and card shows it. */
export function labelledAddressText(tr: Translator, entry: Pick<AddressBookEntry, "address" | "label">): string {
  return entry.label === undefined ? code(entry.address).value : translate(tr, "addresses-entry-line", { label: entry.label, address: code(entry.address) });
}
