/**
 * The Send USDT screen's API: the recipient (the address book, or pasted) and the amount are read by /send's
 * own quote (`prepareSendQuote`: the same parsing, fee estimate, lookalike warning and stored intent), and
 * Confirm by /send's own Confirm (`confirmSend`: the chat's caps and second tap, then the one-time signing
 * link). The link opens the signing page like the chat's; the signed transfer is broadcast and its card
 * shown in the chat by the same acceptor.
 */
import type { Context, Hono } from "hono";
import type { Logger } from "pino";
import type { Flows } from "../shared/flows.js";
import type { PricingCache } from "../platform/service/pricing-cache.js";
import { formatTrx } from "../bot/helpers/format.js";
import { limitRefusalText } from "../bot/helpers/refusal-texts.js";
import type { Translator } from "../bot/helpers/record-text.js";
import { visibleText } from "../bot/helpers/visible-text.js";
import type { Translations } from "../bot/i18n.js";
import { confirmSend, prepareSendQuote, signingLink, signingText, type SendIntents } from "../features/send/index.js";
import { API_HEADERS, type ApiEnv, type ApiRoutes } from "./mini-app-api.js";
import { apiBodyLimit, notLinked, readJsonObject } from "./api-request.js";

export interface MiniAppSendDeps {
  i18n: Translations;
  pricing: Pick<PricingCache, "get">;
  flows: Pick<Flows, "addressBook" | "limits" | "now">;
  intents: SendIntents;
  usdtContract: string;
  burnPriceSun: number;
  /** Where the signing page is served: the link the chat hands out, to the same page. */
  publicUrl: string;
  logger: Logger;
}

export function miniAppSendRoutes(deps: MiniAppSendDeps): ApiRoutes {
  const log = deps.logger.child({ component: "mini-app-send" });
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });
  const json = (c: Context<ApiEnv>, body: unknown, status: 200 | 400 | 403 | 404 | 409 | 422 = 200) => c.json(body, status, API_HEADERS);
  const quoteDeps = {
    intents: deps.intents,
    addressBook: deps.flows.addressBook,
    pricing: deps.pricing,
    usdtContract: deps.usdtContract,
    burnPriceSun: deps.burnPriceSun,
    now: deps.flows.now,
  };

  return (api: Hono<ApiEnv>) => {
    api.get("/send/options", async (c) => {
      const { chatId, linked } = c.get("caller");
      if (linked === undefined) return notLinked(c, deps.i18n);
      const book = await deps.flows.addressBook.list(chatId);
      return json(c, { receivers: book.map((e) => ({ address: e.address, label: e.label ?? null })) });
    });

    api.post("/send/quote", apiBodyLimit, async (c) => {
      const { chatId, locale } = c.get("caller");
      const { linked } = c.get("caller");
      if (linked === undefined) return notLinked(c, deps.i18n);
      const body = (await readJsonObject(c)) ?? {};
      const who = body["recipient"];
      const amountText = body["amount"];
      if (typeof who !== "string" || typeof amountText !== "string" || who.length > 100 || amountText.length > 40)
        return json(c, { error: "bad_request" }, 400);
      // /send's own quote: the chat's link is recorded, so a later link of any account never sends it.
      const quote = await prepareSendQuote(quoteDeps, tr(locale), { chatId, linkId: linked.record.linkId, who, amountText, locale });
      if (!quote.ok) return json(c, { error: `bad_${quote.step}`, message: visibleText(quote.text) }, 422);
      return json(c, { intentId: quote.intentId, text: visibleText(quote.text) });
    });

    api.post("/send/confirm", apiBodyLimit, async (c) => {
      const { chatId, locale } = c.get("caller");
      if (c.get("caller").linked === undefined) return notLinked(c, deps.i18n);
      const body = (await readJsonObject(c)) ?? {};
      const intentId = body["intentId"];
      if (typeof intentId !== "string" || !/^[0-9a-f]{1,32}$/.test(intentId)) return json(c, { error: "bad_request" }, 400);
      const intent = await deps.intents.get(intentId);
      // Another chat's intent is as unknown as a made-up one.
      if (intent === undefined || intent.chatId !== chatId) return json(c, { status: "expired", message: deps.i18n.t(locale, "button-expired") }, 404);
      if (intent.state === "cancelled" || intent.state === "signed") {
        return json(
          c,
          { status: intent.state, message: visibleText(deps.i18n.t(locale, intent.state === "signed" ? "send-link-dead" : "send-cancelled")) },
          409,
        );
      }
      // A Confirm of a quote already signing gives a new link after the same checks, as the chat's 🔗 New link.
      const again = body["confirmedAgain"] === true || intent.state === "signing";
      const confirmed = await confirmSend({ limits: deps.flows.limits, intents: deps.intents, now: deps.flows.now }, intent, again);
      log.info({ chatId, intentId, result: confirmed.ok ? "link" : confirmed.reason }, "mini app send confirmed");
      if (confirmed.ok) {
        const url = signingLink(deps.publicUrl, confirmed.token);
        const { zone } = await deps.flows.limits.zoneOf(chatId);
        const text = visibleText(signingText(tr(locale), confirmed.intent, url, { nowMs: deps.flows.now(), timeZone: zone }, locale));
        // The text offers a QR code for a wallet on another device, as the chat's card does: the page shows it.
        const { default: QRCode } = await import("qrcode");
        const qr = await QRCode.toDataURL(url, { margin: 2, width: 440, errorCorrectionLevel: "M" });
        return json(c, { status: "link", url, text, qr, expiresAtMs: confirmed.intent.linkExpiresAtMs ?? null });
      }
      switch (confirmed.reason) {
        case "refused":
          return json(c, { status: "refused", message: visibleText(limitRefusalText(tr(locale), confirmed.refusal, confirmed.feeSun, locale)) }, 409);
        case "needs_second_tap":
          return json(
            c,
            {
              status: "needs_second_tap",
              message: deps.i18n.t(locale, "limits-confirm-again-note"),
              button: deps.i18n.t(locale, "limits-confirm-again-button", { costTrx: formatTrx(confirmed.feeSun, locale) }),
            },
            409,
          );
        case "expired":
          return json(c, { status: "expired", message: deps.i18n.t(locale, "button-expired") }, 409);
      }
    });
  };
}
