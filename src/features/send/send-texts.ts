import { InlineKeyboard } from "grammy";
import { atomicToUsdt, formatDecimal, mulSun } from "../../shared/money.js";
import { RESOURCE_ESTIMATES } from "../../shared/tron/index.js";
import { createCallbackData } from "../../bot/callback-data/create-callback-data.js";
import { formatInteger, formatTrx } from "../../bot/helpers/format.js";
import { clockText } from "../../bot/helpers/expiry-text.js";
import { code, translate } from "../../bot/helpers/html.js";
import type { Translator } from "../../bot/helpers/record-text.js";
import type { SendIntent } from "./send-intent.js";

/** The quote's and the signing card's buttons: c confirm, a confirm again (second tap), x cancel, q QR code, n new link. */
export const sendData = createCallbackData("sd", ["intentId", "action"]);

export const usdtText = (amountAtomic: string, locale: string): string => formatDecimal(atomicToUsdt(amountAtomic), locale);

/** The two documented estimates of a USDT transfer's energy and their fees at the base price (service-api.md, "Fee"). */
export function sendFees(baseUnitPriceSun: number, burnPriceSun: number) {
  const holder = RESOURCE_ESTIMATES.usdtExistingHolder;
  const firstTime = RESOURCE_ESTIMATES.usdtNewHolder;
  return {
    holder,
    firstTime,
    holderSun: mulSun(holder, baseUnitPriceSun),
    firstTimeSun: mulSun(firstTime, baseUnitPriceSun),
    holderBurnSun: mulSun(holder, burnPriceSun),
    firstTimeBurnSun: mulSun(firstTime, burnPriceSun),
  };
}

export interface QuoteView {
  intent: SendIntent;
  baseUnitPriceSun: number;
  burnPriceSun: number;
  /** The known address the recipient imitates, and its label. */
  lookalike?: { address: string; label?: string | undefined };
}

export function sendQuoteText(tr: Translator, view: QuoteView, locale: string): string {
  const { intent } = view;
  const fees = sendFees(view.baseUnitPriceSun, view.burnPriceSun);
  const lines: string[] = [];
  if (view.lookalike) {
    const { address, label } = view.lookalike;
    lines.push(translate(tr, "send-lookalike", { to: code(intent.to), known: code(address) }));
    if (label !== undefined) lines.push(translate(tr, "send-lookalike-label", { label }));
    lines.push("");
  }
  lines.push(
    translate(tr, "send-quote-title"),
    intent.label === undefined
      ? translate(tr, "send-quote-to", { address: code(intent.to) })
      : translate(tr, "send-quote-to-label", { label: intent.label, address: code(intent.to) }),
    translate(tr, "send-quote-amount", { amount: usdtText(intent.amountAtomic, locale) }),
    translate(tr, "send-quote-fee", {
      holderTrx: formatTrx(fees.holderSun, locale),
      holderEnergy: formatInteger(fees.holder, locale),
      firstTimeTrx: formatTrx(fees.firstTimeSun, locale),
      firstTimeEnergy: formatInteger(fees.firstTime, locale),
    }),
    translate(tr, "send-quote-burn", { holderBurnTrx: formatTrx(fees.holderBurnSun, locale), firstTimeBurnTrx: formatTrx(fees.firstTimeBurnSun, locale) }),
    "",
    translate(tr, "send-quote-how"),
  );
  return lines.join("\n");
}

export function sendQuoteKeyboard(tr: Translator, intentId: string, flagged: boolean): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t(flagged ? "send-confirm-anyway-button" : "send-confirm-button"), sendData.pack({ intentId, action: "c" }))
    .text(tr.t("send-cancel-button"), sendData.pack({ intentId, action: "x" }));
}

export function signingLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/sign/${token}`;
}

export function signingText(tr: Translator, intent: SendIntent, link: string, zone: { nowMs: number; timeZone: string }, locale: string): string {
  return [
    translate(tr, "send-signing-title", { amount: usdtText(intent.amountAtomic, locale), address: code(intent.to) }),
    "",
    translate(tr, "send-signing-how"),
    code(link).value,
    "",
    translate(tr, "send-signing-expires", { time: clockText(intent.linkExpiresAtMs ?? zone.nowMs, zone.nowMs, locale, zone.timeZone) }),
  ].join("\n");
}

export function signingKeyboard(tr: Translator, intentId: string, link: string): InlineKeyboard {
  return new InlineKeyboard()
    .url(tr.t("send-sign-button"), link)
    .row()
    .text(tr.t("send-qr-button"), sendData.pack({ intentId, action: "q" }))
    .text(tr.t("send-cancel-button"), sendData.pack({ intentId, action: "x" }));
}

/** A dead link's card: a new link is one tap away while the quote may still be sent. */
export function newLinkKeyboard(tr: Translator, intentId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("send-new-link-button"), sendData.pack({ intentId, action: "n" }))
    .text(tr.t("send-cancel-button"), sendData.pack({ intentId, action: "x" }));
}
