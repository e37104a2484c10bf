import { InlineKeyboard } from "grammy";
import type { AddressBookEntry } from "../../shared/address-book.js";
import type { PricingTier } from "../../platform/service/schemas.js";
import { sortedTiers } from "../../shared/orders/order-input.js";
import { cancelData } from "../callback-data/cancel.js";
import { orderStepData } from "../callback-data/order.js";
import type { Translator } from "../helpers/record-text.js";
import { tierLabel } from "../helpers/tiers.js";

/** The buttons of the steps every flow asks the same way (receiver, duration, Cancel): order, keep, send and the address book. */

export const RECENT_RECEIVERS_SHOWN = 6;

/** Closes the current row only when it holds buttons: Telegram clients draw an empty row as a gap. */
export function endRow(kb: InlineKeyboard): InlineKeyboard {
  const last = kb.inline_keyboard.at(-1);
  return last === undefined || last.length === 0 ? kb : kb.row();
}

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** Recent receivers (label, or a shortened address next to nothing else), then Cancel. */
export function createReceiverKeyboard(tr: Translator, flow: string, recent: readonly AddressBookEntry[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  recent.slice(0, RECENT_RECEIVERS_SHOWN).forEach((entry, i) => {
    const text = entry.label ? `${entry.label} · ${shortAddress(entry.address)}` : shortAddress(entry.address);
    kb.text(text, orderStepData.pack({ flow, action: "a", value: i })).row();
  });
  return endRow(kb).text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}

/** One button per pricing tier, so a new tier appears by itself; labelled in the reader's language. */
export function createDurationKeyboard(tr: Translator, flow: string, tiers: readonly PricingTier[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  sortedTiers(tiers).forEach((tier, i) => {
    kb.text(
      tr.t("order-duration-button", { label: tierLabel(tr, tier), unitPriceSun: tier.unitPriceSun }),
      orderStepData.pack({ flow, action: "d", value: tier.durationSec }),
    );
    if (i % 2 === 1) kb.row();
  });
  return endRow(kb).text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}

export function createCancelOnlyKeyboard(tr: Translator, flow: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow }));
}
