import { readUsdtAmount } from "../../shared/money.js";
import { isValidTronAddress } from "../../shared/tron/index.js";
import type { AddressBook } from "../../shared/address-book.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import { translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import { lookalikeOf } from "./lookalike.js";
import type { SendIntents } from "./send-intent.js";
import { sendFees, sendQuoteKeyboard, sendQuoteText, usdtText } from "./send-texts.js";

export interface SendQuoteDeps {
  intents: Pick<SendIntents, "create">;
  addressBook: Pick<AddressBook, "resolve" | "list">;
  pricing: Pick<PricingCache, "get">;
  usdtContract: string;
  burnPriceSun: number;
  now: () => number;
}

export interface SendQuoteInput {
  chatId: number;
  linkId?: string | undefined;
  /** An address or a saved label, as typed. */
  who: string;
  /** The amount as typed, in the chat's language. */
  amountText: string;
  locale: string;
}

/** The quote to show (plain JSON, so a conversation can keep it), or the one line that says what is wrong. */
export type SendQuote =
  { ok: true; intentId: string; text: string; reply_markup: { inline_keyboard: unknown[][] } } | { ok: false; step: "recipient" | "amount"; text: string };

/** Reads the recipient and the amount, and stores the intent the quote's buttons act on. */
export async function prepareSendQuote(deps: SendQuoteDeps, tr: Translator, input: SendQuoteInput): Promise<SendQuote> {
  const { chatId, locale } = input;
  const to = await deps.addressBook.resolve(chatId, input.who.trim());
  if (to === undefined || !isValidTronAddress(to))
    return { ok: false, step: "recipient", text: translate(tr, "send-bad-recipient", { text: input.who.trim() }) };
  const amountText = input.amountText.trim().replace(/\s*usdt$/i, "");
  const amount = readUsdtAmount(amountText, locale);
  if (!amount.ok) {
    const text =
      amount.reason === "ambiguous"
        ? translate(tr, "send-ambiguous-amount", {
            text: amountText,
            first: usdtText(amount.readings[0].toString(), locale),
            second: usdtText(amount.readings[1].toString(), locale),
          })
        : translate(tr, "send-bad-amount", { text: amountText || "…" });
    return { ok: false, step: "amount", text };
  }
  if (amount.atomic <= 0n) return { ok: false, step: "amount", text: translate(tr, "send-zero-amount") };
  const { baseUnitPriceSun } = await deps.pricing.get();
  const fees = sendFees(baseUnitPriceSun, deps.burnPriceSun);
  const book = await deps.addressBook.list(chatId);
  const labelOf = (address: string) => book.find((e) => e.address === address)?.label;
  const label = labelOf(to);
  const imitated = lookalikeOf(
    to,
    book.map((e) => e.address),
  );
  const intent = await deps.intents.create(
    {
      chatId,
      ...(input.linkId === undefined ? {} : { linkId: input.linkId }),
      to,
      ...(label === undefined ? {} : { label }),
      amountAtomic: amount.atomic.toString(),
      usdtContract: deps.usdtContract,
      feeSun: fees.firstTimeSun.toString(),
      holderFeeSun: fees.holderSun.toString(),
      locale,
    },
    deps.now(),
  );
  const lookalike = imitated === undefined ? undefined : { address: imitated, label: labelOf(imitated) };
  return {
    ok: true,
    intentId: intent.intentId,
    text: sendQuoteText(tr, { intent, baseUnitPriceSun, burnPriceSun: deps.burnPriceSun, ...(lookalike ? { lookalike } : {}) }, locale),
    reply_markup: { inline_keyboard: sendQuoteKeyboard(tr, intent.intentId, lookalike !== undefined).inline_keyboard },
  };
}
