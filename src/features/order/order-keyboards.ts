import { InlineKeyboard } from "grammy";
import { quoteData } from "../../bot/callback-data/order.js";
import { topUpData } from "../../bot/callback-data/top-up.js";
import { limitsData } from "../../bot/callback-data/limits.js";
import type { QuoteBlock } from "../../shared/orders/prepare-quote.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { endRow } from "../../bot/keyboards/step-keyboards.js";

/** A quote the balance cannot cover: Top up first, no Confirm certain to fail (it comes back once the money is there). */
export function createShortQuoteKeyboard(tr: Translator, quoteId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("topup-button"), topUpData.pack({ kind: "o", refId: quoteId }))
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
