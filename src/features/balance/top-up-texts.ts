import { InputFile, type InlineKeyboard } from "grammy";
import type { BalanceWatch } from "./top-up-watcher.js";
import { MIN_DEPOSIT_SUN, type TopUpAdvice } from "../../shared/orders/top-up-advice.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { createBroadcastRetryKeyboard } from "../broadcast/index.js";
import { createQuoteKeyboard, createRetryKeyboard } from "../order/index.js";

type ShortAdvice = Extract<TopUpAdvice, { covered: false }>;

/**
 * How much to send and where, for a balance that falls short: the amount is
 * never below the minimum deposit, and when the floor raised it the user is
 * told why (otherwise "send 10 TRX" for a 1 TRX shortfall looks like a bug).
 */
export function topUpAdviceText(tr: Translator, advice: ShortAdvice, depositAddress: string | null, locale: string): string {
  if (depositAddress === null) return translate(tr, "topup-no-address");
  const lines = [translate(tr, "topup-send", { sendTrx: formatTrx(advice.sendSun, locale), address: code(depositAddress) })];
  if (advice.shortfallSun < MIN_DEPOSIT_SUN) {
    lines.push(
      translate(tr, "topup-minimum-note", { minDepositTrx: formatTrx(MIN_DEPOSIT_SUN, locale), shortfallTrx: formatTrx(advice.shortfallSun, locale) }),
    );
  }
  return lines.join("\n");
}

/**
 * A QR code of `text` as a PNG ready to send. qrcode (and pngjs under it, some 60 modules) is loaded
 * on the first one: most processes draw none for a long time.
 */
export async function qrPhoto(text: string, fileName: string): Promise<InputFile> {
  const { default: QRCode } = await import("qrcode");
  const png = await QRCode.toBuffer(text, { type: "png", margin: 2, width: 360, errorCorrectionLevel: "M" });
  return new InputFile(png, fileName);
}

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

/** `/start topup_<requiredSun>`: from an inline quote the balance cannot cover, into the private chat. */
const TOP_UP_LINK = /^topup_(\d{1,18})$/;

export function topUpDeepLink(requiredSun: bigint): string {
  return `topup_${requiredSun}`;
}

export function parseTopUpDeepLink(payload: string): bigint | undefined {
  const m = TOP_UP_LINK.exec(payload);
  return m ? BigInt(m[1]!) : undefined;
}

export function isTopUpDeepLink(payload: string): boolean {
  return TOP_UP_LINK.test(payload);
}
