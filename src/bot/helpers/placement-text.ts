import type { InlineKeyboard } from "grammy";
import type { PlaceResult } from "../../core/orders/place-order.js";
import type { PlacedOrder } from "../../core/orders/quote.js";
import type { Order } from "../../core/service/schemas.js";
import type { ConversationContext } from "../context.js";
import { serviceErrorText } from "./error-text.js";
import { formatTrx } from "./format.js";
import { code, translate } from "./html.js";
import { orderCardText } from "./record-text.js";
import { createRetryKeyboard } from "../keyboards/order.js";

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
  else {
    const total = result.orders.reduce((sum, o) => sum + BigInt(o.totalCostSun), 0n);
    lines.push(translate(tr, "order-batch-placed-title", { count: result.orders.length, totalTrx: formatTrx(total, locale) }));
    result.orders.slice(0, 40).forEach((o, i) => {
      lines.push(translate(tr, "order-batch-placed-line", { n: i + 1, orderId: code(o.orderId), receiver: code(o.receiver) }));
    });
    if (result.orders.length > 40) lines.push(translate(tr, "order-quote-batch-more", { count: result.orders.length - 40 }));
  }
  if (result.replayed) lines.push(translate(tr, "order-placed-replayed"));
  return lines.join("\n");
}

/** A refusal: the service's explanation, the 402 details, and Retry when the same key may go again. */
export function failedReply(tr: Tr, result: Extract<PlaceResult, { status: "failed" }>, locale: string): { text: string; keyboard?: InlineKeyboard } {
  const { error, balance, quote } = result;
  const lines = [serviceErrorText(tr, error, locale)];
  if (error.code === "wallet.insufficient_balance") {
    const requiredTrx = formatTrx(error.requiredSun ?? BigInt(quote.totalSun), locale);
    const availableTrx = balance ? formatTrx(balance.availableSun, locale) : "?";
    lines.push(
      balance?.depositAddress
        ? translate(tr, "order-topup", { requiredTrx, availableTrx, depositAddress: code(balance.depositAddress) })
        : translate(tr, "order-topup-no-address", { requiredTrx, availableTrx }),
    );
  }
  if (result.retryable) lines.push(translate(tr, "order-retry-safe"));
  return result.retryable ? { text: lines.join("\n\n"), keyboard: createRetryKeyboard(tr, quote.quoteId) } : { text: lines.join("\n\n") };
}
