import { InlineKeyboard } from "grammy";
import type { AddressBookEntry } from "../../shared/address-book.js";
import type { PricingTier } from "../../platform/service/schemas.js";
import { sortedTiers } from "../../shared/orders/order-input.js";
import { cancelData } from "../../bot/callback-data/cancel.js";
import { orderStepData, quoteData } from "./order-callback-data.js";
import { topUpData } from "../balance/index.js";
import { limitsData } from "../limits/index.js";
import type { QuoteBlock } from "../../shared/orders/prepare-quote.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { tierLabel } from "../../bot/helpers/tiers.js";

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

/** Confirm first, Cancel last. */
export function createQuoteKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("order-quote-confirm-button"), quoteData.pack({ quoteId, action: "c" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** A quote the balance cannot cover: Top up first, no Confirm certain to fail (it comes back once the money is there). */
export function createShortQuoteKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "o", refId: quoteId }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** After a 402: Top up first, Retry (same key) for when the money is there, Cancel last. */
export function createTopUpRetryKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "o", refId: quoteId }))
    .row()
    .text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "r" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/** Retry sends the same quote with the same Idempotency-Key. */
export function createRetryKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "r" }))
    .text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

export function createFreshQuoteKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("order-quote-fresh-button"), quoteData.pack({ quoteId, action: "f" }));
}

/**
 * A quote that cannot be confirmed as it stands: the button that resolves its block (Unfreeze, Limits),
 * then Check again (a fresh quote drawn on the same message), Cancel last. No Confirm.
 */
export function createBlockedQuoteKeyboard(tr: Translator, quoteId: string, blocked: QuoteBlock): InlineKeyboard {
  const kb = new InlineKeyboard();
  switch (blocked.reason) {
    case "frozen":
      kb.text(tr.t("order-quote-unfreeze-button"), quoteData.pack({ quoteId, action: "u" }));
      break;
    case "daily_cap":
    case "monthly_cap":
      kb.text(tr.t("order-quote-limits-button"), limitsData.pack({ action: "s" })).text(
        tr.t("order-quote-check-button"),
        quoteData.pack({ quoteId, action: "g" }),
      );
      break;
    case "no_wallet":
      kb.text(tr.t("order-quote-check-button"), quoteData.pack({ quoteId, action: "g" }));
      break;
    case "balance_unknown":
      kb.text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "g" }));
      break;
  }
  return kb.row().text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}

/**
 * A receiver the service refused as undeliverable: ✏️ Change address (the same amount and duration to
 * another receiver) when the quote has one receiver, Retry (same key) only when it could now pass
 * (an account that may be activated meanwhile, never a contract), Cancel last.
 */
export function createUndeliverableKeyboard(tr: Translator, quoteId: string, opts: { changeAddress: boolean; retry: boolean }): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (opts.changeAddress) kb.text(tr.t("order-change-address-button"), quoteData.pack({ quoteId, action: "e" }));
  if (opts.retry) kb.text(tr.t("order-quote-retry-button"), quoteData.pack({ quoteId, action: "r" }));
  return endRow(kb).text(tr.t("order-cancel-button"), quoteData.pack({ quoteId, action: "x" }));
}
