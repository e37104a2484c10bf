import type { InlineKeyboard } from "grammy";
import type { PlaceResult } from "../../shared/orders/place-order.js";
import type { PlacedOrder } from "../../shared/orders/quote.js";
import type { Order } from "../../platform/service/schemas.js";
import type { ConversationContext } from "../../bot/context.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import type { ComposedText } from "../../bot/helpers/service-links.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, translate } from "../../bot/helpers/html.js";
import { orderCardText } from "../../bot/helpers/record-text.js";
import { batchCardText } from "../../bot/helpers/batch-card-texts.js";
import { placedBatchProgress } from "../../shared/orders/batch-progress.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { createUndeliverableKeyboard } from "./order-keyboards.js";
import { createRetryKeyboard, createTopUpRetryKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import type { ServiceError } from "../../platform/service/errors.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";

type Tr = Pick<ConversationContext, "t">;

/** A just-placed order as a full record for its first card. */
export function placedAsOrder(o: PlacedOrder): Order {
  return {
    orderId: o.orderId,
    status: o.status,
    receiver: o.receiver,
    resource: "ENERGY",
    resourceAmount: o.resourceAmount,
    remainAmount: o.status === "fulfilled" ? 0 : o.resourceAmount,
    isMatching: o.status !== "fulfilled",
    durationSec: o.durationSec,
    totalCostSun: o.totalCostSun,
    createdAt: o.createdAt,
  };
}

/** The message a placed quote turns into: the order's card, or the batch's list. */
export function placedText(tr: Tr, result: Extract<PlaceResult, { status: "placed" }>, locale: string): string {
  const lines: string[] = [];
  if (result.orders.length === 1) lines.push(orderCardText(tr, placedAsOrder(result.orders[0]!), locale));
  else lines.push(batchCardText(tr, placedBatchProgress(result.orders), locale));
  if (result.replayed) lines.push(translate(tr, "order-placed-replayed"));
  return lines.join("\n");
}

/**
 * 402 in one place: required, available, shortfall, how much to send where
 * (never under the minimum deposit), and Retry explained once (the service's generic 402 text would repeat it).
 */
function insufficientText(tr: Tr, result: Extract<PlaceResult, { status: "failed" }>, locale: string): ComposedText {
  const { error, balance, quote, noWallet } = result;
  const required = BigInt(error.requiredSun ?? quote.totalSun);
  // No wallet yet means nothing to spend: the same 0 that /balance implies, never "?".
  const available = noWallet ? 0n : balance ? BigInt(balance.availableSun) : undefined;
  const lines: string[] = [];
  // The texts that send the user elsewhere (the dashboard): their links go under the message.
  const keys: string[] = [];
  const said = (key: string) => {
    keys.push(key);
    lines.push(translate(tr, key));
  };
  if (available === undefined) {
    lines.push(translate(tr, "order-insufficient-required", { requiredTrx: formatTrx(required, locale) }), translate(tr, "order-insufficient-balance-unknown"));
  } else {
    const missing = required > available ? required - available : 0n;
    lines.push(
      translate(tr, "order-insufficient", {
        requiredTrx: formatTrx(required, locale),
        availableTrx: formatTrx(available, locale),
        missingTrx: formatTrx(missing, locale),
      }),
    );
    if (noWallet) said("order-insufficient-no-wallet");
    else if (balance?.depositAddress) {
      const advice = topUpAdvice(required, available);
      if (!advice.covered) lines.push(`${topUpAdviceText(tr, advice, balance.depositAddress, locale)}\n${translate(tr, "topup-watching")}`);
    } else said("order-insufficient-no-address");
  }
  lines.push(translate(tr, "order-insufficient-retry"));
  return { text: lines.join("\n\n"), keys };
}

/**
 * Whether the service refused the receiver as a contract: its detail names which of the two causes
 * of `order.receiver_undeliverable` it was (service-api.md section 7). A contract never becomes
 * deliverable, so the same order can never pass; an inactive account may be activated meanwhile.
 */
export function isContractRefusal(error: ServiceError): boolean {
  return error.code === "order.receiver_undeliverable" && /\bis a contract\b/i.test(error.detail ?? "");
}

/** An undeliverable receiver: which one, why, and what each button does; Retry only when it may pass. */
function undeliverableReply(tr: Tr, result: Extract<PlaceResult, { status: "failed" }>): ComposedText & { keyboard: InlineKeyboard } {
  const { error, quote } = result;
  const detail = error.detail ?? "";
  const receiver = quote.items.find((i) => detail.includes(i.toAddress))?.toAddress ?? (quote.items.length === 1 ? quote.items[0]!.toAddress : undefined);
  const contract = isContractRefusal(error);
  const single = quote.items.length === 1;
  const key = contract ? "order-undeliverable-contract" : "order-undeliverable-inactive";
  const lines = [
    translate(tr, key, { address: receiver === undefined ? "-" : code(receiver) }),
    translate(tr, single ? "order-undeliverable-change" : "order-undeliverable-batch"),
  ];
  if (!contract) lines.push(translate(tr, "order-undeliverable-retry"));
  return { text: lines.join("\n\n"), keys: [], keyboard: createUndeliverableKeyboard(tr, quote.quoteId, { changeAddress: single, retry: !contract }) };
}

/** A refusal: the service's explanation, the 402 details, and Retry when the same key may go again. */
export function failedReply(tr: Tr, result: Extract<PlaceResult, { status: "failed" }>, locale: string): ComposedText & { keyboard?: InlineKeyboard } {
  const { error, quote } = result;
  if (error.code === "order.receiver_undeliverable") return undeliverableReply(tr, result);
  const { text, keys } =
    error.code === "wallet.insufficient_balance"
      ? insufficientText(tr, result, locale)
      : {
          text: [serviceErrorText(tr, error, locale), ...(result.retryable ? [translate(tr, "order-retry-safe")] : [])].join("\n\n"),
          keys: [errorTextKey(error)],
        };
  if (!result.retryable) return { text, keys };
  const canTopUp = error.code === "wallet.insufficient_balance" && Boolean(result.balance?.depositAddress);
  return { text, keys, keyboard: canTopUp ? createTopUpRetryKeyboard(tr, quote.quoteId) : createRetryKeyboard(tr, quote.quoteId) };
}
