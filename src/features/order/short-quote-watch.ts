import type { BalanceWatcher } from "../balance/index.js";
import { isShortQuote, type PreparedQuote } from "../../shared/orders/prepare-quote.js";

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
