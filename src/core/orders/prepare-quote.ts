import type { Logger } from "pino";
import type { LinkedChat } from "../chats/chat-repository.js";
import type { PricingCache } from "../pricing-cache.js";
import type { ServiceClient } from "../service/client.js";
import { ServiceError } from "../service/errors.js";
import type { BalanceWatcher } from "../topup/balance-watcher.js";
import type { QuoteStore } from "./quote-store.js";
import { buildQuote, type Quote, type QuoteRequestItem } from "./quote.js";

/** A stored quote and the balance read for it; JSON, so a conversation can keep it. */
export interface PreparedQuote {
  quote: Quote;
  /** null: the balance could not be read (no wallet yet, service hiccup). */
  balance: { availableSun: number; depositAddress: string | null } | null;
  /** The balance endpoint answered 404: the account has no wallet yet (so no deposit address either). */
  noWallet?: boolean;
}

export type PrepareResult = { ok: true; prepared: PreparedQuote } | { ok: false; reason: "pricing_unavailable" | "unknown_duration" | "not_linked" };

export interface PrepareQuoteDeps {
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBalance">;
  quotes: Pick<QuoteStore, "save">;
  now: () => number;
  logger: Pick<Logger, "warn">;
}

/**
 * Prices the items, creates the quote (and its Idempotency-Key) under the
 * chat's current link and stores it, then reads the balance it is shown with.
 */
export async function prepareQuote(deps: PrepareQuoteDeps, linked: LinkedChat | undefined, items: readonly QuoteRequestItem[]): Promise<PrepareResult> {
  if (linked === undefined) return { ok: false, reason: "not_linked" };
  const { chatId, apiKey } = linked;
  let pricing;
  try {
    pricing = await deps.pricing.get();
  } catch (error) {
    deps.logger.warn({ err: error }, "pricing unavailable for a quote");
    return { ok: false, reason: "pricing_unavailable" };
  }
  const built = buildQuote(chatId, items, pricing, deps.now());
  if (!built.ok) return { ok: false, reason: built.reason === "empty" ? "unknown_duration" : built.reason };
  const { linkId } = linked.record;
  if (linkId !== undefined) built.quote.linkId = linkId;
  await deps.quotes.save(built.quote);
  let balance: PreparedQuote["balance"] = null;
  try {
    const b = await deps.service.getBalance(apiKey);
    balance = { availableSun: b.availableSun, depositAddress: b.depositAddress };
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    // 404 on the balance is documented: the account has no wallet yet. Not a hiccup, so say so.
    if (error.isNotFound) return { ok: true, prepared: { quote: built.quote, balance: null, noWallet: true } };
    // The quote says the balance is unknown; Confirm still works and a 402 explains itself.
    deps.logger.warn({ code: error.code, requestId: error.requestId }, "balance unavailable for a quote");
  }
  return { ok: true, prepared: { quote: built.quote, balance } };
}

/** The balance was read and does not cover the quote: Top up replaces Confirm. */
export function isShortQuote({ quote, balance }: PreparedQuote): boolean {
  return balance !== null && BigInt(balance.availableSun) < BigInt(quote.totalSun);
}

/** A short quote is watched until the money is there (or the quote is gone); the chat then hears "Confirm". */
export async function watchShortQuote(watcher: Pick<BalanceWatcher, "watch"> | undefined, prepared: PreparedQuote, locale: string): Promise<void> {
  if (!watcher || !isShortQuote(prepared) || prepared.balance?.depositAddress == null) return;
  const { quote } = prepared;
  await watcher.watch({
    kind: "order",
    refId: quote.quoteId,
    chatId: quote.chatId,
    requiredSun: quote.totalSun,
    origin: "quote",
    untilMs: quote.expiresAtMs,
    locale,
  });
}
