import type { AddressBook } from "../../shared/address-book.js";
import { code, translate } from "./html.js";
import type { Translator } from "./record-text.js";

type Labelled = { kind: "order"; record: { receiver: string } } | { kind: "broadcast"; record: { toAddress: string } };

/**
 * A card or notification with the chat's label beside its receiver's full
 * address ("<code>T…</code> 🏷 main wallet"); the text as it was when the
 * receiver has no label or no book is given.
 */
export async function withReceiverLabel(
  tr: Translator,
  text: string,
  chatId: number,
  item: Labelled,
  book: Pick<AddressBook, "labelOf"> | undefined,
): Promise<string> {
  const address = item.kind === "order" ? item.record.receiver : item.record.toAddress;
  const label = await book?.labelOf(chatId, address);
  if (label === undefined) return text;
  const shown = code(address).value;
  return text.replaceAll(shown, `${shown} ${translate(tr, "addresses-card-label", { label })}`);
}
