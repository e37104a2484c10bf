import type { Logger } from "pino";
import type { LinkedChat } from "../chats/chat-repository.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import { decideSpend, type SpendLimits } from "../limits/spend-guard.js";
import type { QuoteStore } from "./quote-store.js";
import { buildQuote, type Quote, type QuoteRequestItem } from "./quote.js";

/**
 * What keeps a quote from being confirmed, known before its Confirm exists: the chat froze its
 * spending, the total would cross a cap, the account has no wallet, or its balance could not be read.
 */
export type QuoteBlock =
  { reason: "frozen" } | { reason: "daily_cap" | "monthly_cap"; capSun: string; spentSun: string } | { reason: "no_wallet" } | { reason: "balance_unknown" };

/** A stored quote and the balance read for it; JSON, so a conversation can keep it. */
export interface PreparedQuote {
  quote: Quote;
  /** null: the balance could not be read (no wallet yet, service hiccup). */
  balance: { availableSun: number; depositAddress: string | null } | null;
  /** The balance endpoint answered 404: the account has no wallet yet (so no deposit address either). */
  noWallet?: boolean;
  /** Set when the quote cannot be confirmed as it stands: it is shown with what resolves it instead of Confirm. */
  blocked?: QuoteBlock;
  /** The chat's second-tap threshold (sun), when this quote is above it: Confirm will ask once more. */
  secondTapAboveSun?: string;
  /** Sun per unit of energy when TRX is burnt for it: the quote states its saving (or extra cost) against that. */
  burnPriceSun?: number;
}

export type PrepareResult =
  | { ok: true; prepared: PreparedQuote }
  | { ok: false; reason: "pricing_unavailable" | "unknown_duration" | "not_linked" }
  /** A receiver that is one of the bot's own token contracts: no wallet, the service would refuse it. */
  | { ok: false; reason: "contract_receiver"; address: string };

export interface PrepareQuoteDeps {
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBalance">;
  quotes: Pick<QuoteStore, "save">;
  now: () => number;
  logger: Pick<Logger, "warn">;
  /** The chat's limits, read to refuse at quote time what Confirm would refuse. */
  limits?: Pick<SpendLimits, "status">;
  /** Contracts that are never a receiver (the bot's token contracts). */
  knownContracts?: readonly string[];
  /** ENERGY_BURN_PRICE_SUN. */
  burnPriceSun?: number;
}

/** The first receiver among `items` that is a known contract. */
export function contractReceiverOf(items: readonly { toAddress: string }[], knownContracts: readonly string[] | undefined): string | undefined {
  if (!knownContracts || knownContracts.length === 0) return undefined;
  return items.find((i) => knownContracts.includes(i.toAddress))?.toAddress;
}

/**
 * Prices the items, creates the quote (and its Idempotency-Key) under the
 * chat's current link and stores it, then reads the balance it is shown with.
 */
export async function prepareQuote(deps: PrepareQuoteDeps, linked: LinkedChat | undefined, items: readonly QuoteRequestItem[]): Promise<PrepareResult> {
  if (linked === undefined) return { ok: false, reason: "not_linked" };
  const { chatId, apiKey } = linked;
  const contract = contractReceiverOf(items, deps.knownContracts);
  if (contract !== undefined) return { ok: false, reason: "contract_receiver", address: contract };
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
  const prepared: PreparedQuote = { quote: built.quote, balance: null };
  if (deps.burnPriceSun !== undefined) prepared.burnPriceSun = deps.burnPriceSun;
  const limitBlock = await judgeLimits(deps, chatId, built.quote, prepared);
  try {
    const b = await deps.service.getBalance(apiKey);
    prepared.balance = { availableSun: b.availableSun, depositAddress: b.depositAddress };
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    // 404 on the balance is documented: the account has no wallet yet. Not a hiccup, so say so.
    if (error.isNotFound) prepared.noWallet = true;
    else deps.logger.warn({ code: error.code, requestId: error.requestId }, "balance unavailable for a quote");
  }
  // What to resolve first: the chat's own word (a freeze, a cap), then the account (its wallet, its balance).
  const blocked: QuoteBlock | undefined =
    limitBlock ?? (prepared.noWallet ? { reason: "no_wallet" } : prepared.balance === null ? { reason: "balance_unknown" } : undefined);
  if (blocked) prepared.blocked = blocked;
  return { ok: true, prepared };
}

/** The limits' word on the quote as Confirm would hear it now; the threshold goes on the quote. */
async function judgeLimits(deps: PrepareQuoteDeps, chatId: number, quote: Quote, prepared: PreparedQuote): Promise<QuoteBlock | undefined> {
  if (!deps.limits) return undefined;
  const status = await deps.limits.status(chatId);
  const decision = decideSpend(status, BigInt(quote.totalSun), quote.items.length > 1 ? "batch" : "order");
  if (!decision.allowed) {
    if (decision.reason === "frozen") return { reason: "frozen" };
    return { reason: decision.reason, capSun: decision.capSun ?? "0", spentSun: decision.spentSun ?? "0" };
  }
  const threshold = status.settings.confirmAboveSun;
  if (decision.needsSecondTap && threshold !== undefined) prepared.secondTapAboveSun = threshold;
  return undefined;
}

/** The balance was read and does not cover the quote: Top up replaces Confirm. */
export function isShortQuote({ quote, balance, blocked }: PreparedQuote): boolean {
  return blocked === undefined && balance !== null && BigInt(balance.availableSun) < BigInt(quote.totalSun);
}
