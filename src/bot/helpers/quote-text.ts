import type { Logger } from "pino";
import type { ServiceClient } from "../../core/service/client.js";
import { ServiceError } from "../../core/service/errors.js";
import type { PricingCache } from "../../core/pricing-cache.js";
import { buildQuote, QUOTE_LIFETIME_MS, type Quote, type QuoteRequestItem } from "../../core/orders/quote.js";
import type { QuoteStore } from "../../core/orders/quote-store.js";
import type { ChatRepository } from "../../core/chats/chat-repository.js";
import type { BalanceWatcher } from "../../core/topup/balance-watcher.js";
import { topUpAdvice } from "../../core/topup/top-up-advice.js";
import { formatInteger, formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { durationText, type Translator } from "./record-text.js";
import { topUpAdviceText } from "./top-up-text.js";

/** A stored quote and the balance read for it; JSON, so a conversation can keep it. */
export interface PreparedQuote {
  quote: Quote;
  /** null: the balance could not be read (no wallet yet, service hiccup). */
  balance: { availableSun: number; depositAddress: string | null } | null;
  /** The balance endpoint answered 404: the account has no wallet yet (so no deposit address either). */
  noWallet?: boolean;
}

export type PrepareResult =
  | { ok: true; prepared: PreparedQuote }
  | { ok: false; reason: "pricing_unavailable" | "unknown_duration" | "not_linked" };

export interface PrepareDeps {
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBalance">;
  chats: Pick<ChatRepository, "getApiKey" | "get">;
  quotes: Pick<QuoteStore, "save">;
  now: () => number;
  logger: Pick<Logger, "warn">;
}

/** Prices the items, creates the quote (and its Idempotency-Key) and stores it. */
export async function prepareQuote(deps: PrepareDeps, chatId: number, items: readonly QuoteRequestItem[]): Promise<PrepareResult> {
  const apiKey = await deps.chats.getApiKey(chatId);
  if (apiKey === undefined) return { ok: false, reason: "not_linked" };
  let pricing;
  try {
    pricing = await deps.pricing.get();
  } catch (error) {
    deps.logger.warn({ err: error }, "pricing unavailable for a quote");
    return { ok: false, reason: "pricing_unavailable" };
  }
  const built = buildQuote(chatId, items, pricing, deps.now());
  if (!built.ok) return { ok: false, reason: built.reason === "empty" ? "unknown_duration" : built.reason };
  const linkId = (await deps.chats.get(chatId))?.linkId;
  if (linkId !== undefined) built.quote.linkId = linkId;
  await deps.quotes.save(built.quote);
  let balance: PreparedQuote["balance"] = null;
  try {
    const b = await deps.service.getBalance(apiKey);
    balance = { availableSun: b.availableSun, depositAddress: b.depositAddress };
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    // 404 on the balance is documented: the account has no wallet yet. Not a hiccup, so say so.
    if (error.code === "not_found") return { ok: true, prepared: { quote: built.quote, balance: null, noWallet: true } };
    // The quote says the balance is unknown; Confirm still works and a 402 explains itself.
    deps.logger.warn({ code: error.code, requestId: error.requestId }, "balance unavailable for a quote");
  }
  return { ok: true, prepared: { quote: built.quote, balance } };
}

/** Lines shown for a batch; the rest is counted, the message must stay under 4096 characters. */
const BATCH_LINES_SHOWN = 15;

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

/** The balance was read and does not cover the quote: Top up replaces Confirm. */
export function isShortQuote({ quote, balance }: PreparedQuote): boolean {
  return balance !== null && BigInt(balance.availableSun) < BigInt(quote.totalSun);
}

/** A short quote is watched until the money is there (or the quote is gone); the chat then hears "Confirm". */
export async function watchShortQuote(watcher: Pick<BalanceWatcher, "watch"> | undefined, prepared: PreparedQuote, locale: string): Promise<void> {
  if (!watcher || !isShortQuote(prepared) || prepared.balance?.depositAddress == null) return;
  const { quote } = prepared;
  await watcher.watch({ kind: "order", refId: quote.quoteId, chatId: quote.chatId, requiredSun: quote.totalSun, origin: "quote", untilMs: quote.expiresAtMs, locale });
}
