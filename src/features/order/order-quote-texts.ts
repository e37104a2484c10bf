import { compareWithBurning } from "../../shared/burn-saving.js";
import type { PreparedQuote, QuoteBlock } from "../../shared/orders/prepare-quote.js";
import { QUOTE_LIFETIME_MS } from "../../shared/orders/quote.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { code, translate } from "../../bot/helpers/html.js";
import { durationText, type Translator } from "../../bot/helpers/record-text.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";

/** Lines shown for a batch; the rest is counted, the message must stay under 4096 characters. */
export const BATCH_LINES_SHOWN = 15;

/** This quote against burning TRX for the same energy (shared/burn-saving.ts, the formula /statement uses). */
function burnLine(tr: Translator, quote: PreparedQuote["quote"], burnPriceSun: number, locale: string): string {
  const energy = quote.items.reduce((sum, i) => sum + BigInt(i.amount), 0n);
  const { burnSun, savingSun } = compareWithBurning(energy, BigInt(quote.totalSun), burnPriceSun);
  const vars = { price: formatInteger(burnPriceSun, locale), burnTrx: formatTrx(burnSun, locale) };
  if (savingSun > 0n) return translate(tr, "order-quote-burn-saving", { ...vars, savingTrx: formatTrx(savingSun, locale) });
  if (savingSun === 0n) return translate(tr, "order-quote-burn-same", vars);
  return translate(tr, "order-quote-burn-extra", { ...vars, extraTrx: formatTrx(-savingSun, locale) });
}

/** Why Confirm is not offered, and what the buttons below do about it. */
function blockedLine(tr: Translator, blocked: QuoteBlock, total: bigint, locale: string): string {
  switch (blocked.reason) {
    case "frozen":
      return translate(tr, "order-quote-blocked-frozen");
    case "daily_cap":
    case "monthly_cap": {
      const capSun = BigInt(blocked.capSun);
      const spentSun = BigInt(blocked.spentSun);
      return translate(tr, blocked.reason === "daily_cap" ? "order-quote-blocked-daily" : "order-quote-blocked-monthly", {
        capTrx: formatTrx(capSun, locale),
        spentTrx: formatTrx(spentSun, locale),
        leftTrx: formatTrx(capSun > spentSun ? capSun - spentSun : 0n, locale),
        costTrx: formatTrx(total, locale),
      });
    }
    case "no_wallet":
      return translate(tr, "order-quote-blocked-no-wallet");
    case "balance_unknown":
      return translate(tr, "order-quote-blocked-balance-unknown");
  }
}

export function quoteText(tr: Translator, prepared: PreparedQuote, locale: string): string {
  const { quote, balance, noWallet, blocked } = prepared;
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
  if (prepared.burnPriceSun !== undefined) lines.push(burnLine(tr, quote, prepared.burnPriceSun, locale));
  if (prepared.secondTapAboveSun !== undefined) {
    lines.push(translate(tr, "order-quote-second-tap", { thresholdTrx: formatTrx(BigInt(prepared.secondTapAboveSun), locale) }));
  }
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
      if (balance.depositAddress !== null && blocked === undefined) lines.push(translate(tr, "topup-watching"));
    }
  }
  if (blocked !== undefined) lines.push("", blockedLine(tr, blocked, total, locale));
  return lines.join("\n");
}
