import type { InputFile } from "grammy";
import { type InlineKeyboard } from "grammy";
import type { BalanceWatch } from "./top-up-watcher.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { createBroadcastRetryKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { createQuoteKeyboard, createRetryKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { qrPhoto } from "../../bot/helpers/qr-photo.js";

/** The QR code of a deposit address. */
export const depositQrPhoto = (address: string): Promise<InputFile> => qrPhoto(address, "deposit-address.png");

/** "Credited": the button that sends the waiting thing under its own key again (Confirm for a quote never sent, else Retry). */
export function creditedMessage(
  tr: Translator,
  watch: Pick<BalanceWatch, "kind" | "refId" | "origin" | "requiredSun">,
  availableSun: number,
  locale: string,
): { text: string; keyboard: InlineKeyboard } {
  const vars = { availableTrx: formatTrx(availableSun, locale), requiredTrx: formatTrx(BigInt(watch.requiredSun), locale) };
  if (watch.kind === "broadcast") return { text: translate(tr, "topup-credited-broadcast", vars), keyboard: createBroadcastRetryKeyboard(tr, watch.refId) };
  if (watch.origin === "quote") return { text: translate(tr, "topup-credited-confirm", vars), keyboard: createQuoteKeyboard(tr, watch.refId) };
  return { text: translate(tr, "topup-credited-retry", vars), keyboard: createRetryKeyboard(tr, watch.refId) };
}
