import type { PreparedQuote } from "../../core/orders/prepare-quote.js";
import { QUOTE_LIFETIME_MS } from "../../core/orders/quote.js";
import { topUpAdvice } from "../../core/topup/top-up-advice.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { durationText, type Translator } from "./record-text.js";
import { topUpAdviceText } from "./top-up-text.js";

/** Lines shown for a batch; the rest is counted, the message must stay under 4096 characters. */
export const BATCH_LINES_SHOWN = 15;

export function quoteText(tr: Translator, { quote, balance, noWallet }: PreparedQuote, locale: string): string {
  const minutes = Math.round(QUOTE_LIFETIME_MS / 60_000);
  const lines: string[] = [];
  if (quote.items.length === 1) {
    const item = quote.items[0]!;
    lines.push(
      translate(tr, "order-quote-title", { minutes }),
      translate(tr, "order-quote-item", {
        address: code(item.toAddress),
        amount: formatInteger(item.amount, locale),
        duration: durationText(tr, item.durationSec),
        unitPriceSun: formatInteger(item.unitPriceSun, locale),
      }),
    );
  } else {
    lines.push(translate(tr, "order-quote-batch-title", { count: quote.items.length, minutes }));
    quote.items.slice(0, BATCH_LINES_SHOWN).forEach((item, i) => {
      lines.push(
        translate(tr, "order-quote-batch-line", {
          n: i + 1,
          address: code(item.toAddress),
          amount: formatInteger(item.amount, locale),
          duration: durationText(tr, item.durationSec),
          costTrx: formatTrx(BigInt(item.costSun), locale),
        }),
      );
    });
    if (quote.items.length > BATCH_LINES_SHOWN) lines.push(translate(tr, "order-quote-batch-more", { count: quote.items.length - BATCH_LINES_SHOWN }));
  }
  const total = BigInt(quote.totalSun);
  lines.push(translate(tr, "order-quote-total", { totalTrx: formatTrx(total, locale) }));
  if (noWallet) lines.push(translate(tr, "order-quote-no-wallet"));
  else if (balance === null) lines.push(translate(tr, "order-quote-balance-unknown"));
  else if (BigInt(balance.availableSun) >= total) {
    lines.push(
      translate(tr, "order-quote-balance", {
        balanceTrx: formatTrx(balance.availableSun, locale),
        afterTrx: formatTrx(BigInt(balance.availableSun) - total, locale),
      }),
    );
  } else {
    const advice = topUpAdvice(total, BigInt(balance.availableSun));
    lines.push(
      translate(tr, "order-quote-balance-short", {
        balanceTrx: formatTrx(balance.availableSun, locale),
        missingTrx: formatTrx(total - BigInt(balance.availableSun), locale),
      }),
    );
    if (!advice.covered) {
      lines.push("", topUpAdviceText(tr, advice, balance.depositAddress, locale));
      if (balance.depositAddress !== null) lines.push(translate(tr, "topup-watching"));
    }
  }
  return lines.join("\n");
}
