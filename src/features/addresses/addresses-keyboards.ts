import { InlineKeyboard } from "grammy";
import type { AddressBookEntry } from "../../shared/address-book.js";
import { addressesData } from "../../bot/callback-data/addresses.js";
import type { Translator } from "../../bot/helpers/record-text.js";

/** Entries per page: ten lines with full addresses stay short on a phone. */
export const ADDRESSES_PAGE_SIZE = 10;

/** One button per entry of the page, then Add, then the page arrows. */
export function createAddressListKeyboard(tr: Translator, page: readonly AddressBookEntry[], pageIndex: number, pages: number): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const entry of page) kb.text(entry.label ?? entry.address, addressesData.pack({ action: "e", value: entry.address })).row();
  kb.text(tr.t("addresses-add-button"), addressesData.pack({ action: "a", value: 0 }));
  if (pages > 1) kb.row();
  if (pageIndex > 0) kb.text("◀️", addressesData.pack({ action: "p", value: pageIndex - 1 }));
  if (pageIndex < pages - 1) kb.text("▶️", addressesData.pack({ action: "p", value: pageIndex + 1 }));
  return kb;
}

export function createAddressEntryKeyboard(tr: Translator, address: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("addresses-rename-button"), addressesData.pack({ action: "r", value: address }))
    .text(tr.t("addresses-delete-button"), addressesData.pack({ action: "d", value: address }))
    .row()
    .text(tr.t("addresses-back-button"), addressesData.pack({ action: "p", value: 0 }));
}

export function createAddressDeleteKeyboard(tr: Translator, address: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("addresses-delete-confirm-button"), addressesData.pack({ action: "y", value: address }))
    .text(tr.t("addresses-back-button"), addressesData.pack({ action: "e", value: address }));
}
