/**
 * The Order screen's API: options (receivers from the address book, amount presets, duration tiers with
 * totals), a quote through the chat's own use case (`prepareQuote`: the same pricing, caps, second-tap
 * threshold and stored quote with its Idempotency-Key), and Confirm through the chat's placer. Without
 * `drawsCard` the tracker announces the order in the chat itself, so its card lives there as usual.
 */
import type { Context, Hono } from "hono";
import type { Logger } from "pino";
import type { Flows } from "../shared/flows.js";
import { prepareQuote, type PrepareQuoteDeps, type QuoteBlock } from "../shared/orders/prepare-quote.js";
import type { PricingCache } from "../platform/service/pricing-cache.js";
import { isValidTronAddress } from "../shared/tron/address.js";
import { formatInteger, formatTrx } from "../bot/helpers/format.js";
import { durationText, type Translator } from "../bot/helpers/record-text.js";
import type { Translations } from "../bot/i18n.js";
import { API_HEADERS, type ApiEnv, type ApiRoutes } from "./mini-app-api.js";
import { apiBodyLimit, notLinked, readJsonObject } from "./api-request.js";
import type { AddressBookEntry } from "../shared/address-book.js";
import type { Pricing } from "../platform/service/schemas.js";

/** The chat's own presets (features/order/order-steps.ts), within the service's bounds. */
/** The amounts the Order and Keep screens offer as one tap. */
export const AMOUNT_PRESETS = [65_000, 131_000, 200_000] as const;

/** Where the Order and Keep screens' forms start: the chat's saved receivers, the amounts the service takes, the presets among them. */
export function formBasics(book: readonly AddressBookEntry[], pricing: Pricing, locale: string) {
  return {
    receivers: book.map((e) => ({ address: e.address, label: e.label ?? null })),
    amountMin: pricing.amountMin,
    amountMax: pricing.amountMax,
    presets: AMOUNT_PRESETS.filter((a) => a >= pricing.amountMin && a <= pricing.amountMax).map((a) => ({ amount: a, text: formatInteger(a, locale) })),
  };
}

export interface MiniAppOrderDeps {
  i18n: Translations;
  pricing: Pick<PricingCache, "get">;
  flows: Pick<Flows, "addressBook" | "placer" | "quotes" | "now" | "limits" | "usdtContract">;
  /** What every quote of the bot is prepared with (`quoteDepsOf`): the same caps, contracts and burn price. */
  quoteDeps: PrepareQuoteDeps;
  logger: Logger;
}

export function miniAppOrderRoutes(deps: MiniAppOrderDeps): ApiRoutes {
  const log = deps.logger.child({ component: "mini-app-order" });
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });
  const json = (c: Context<ApiEnv>, body: unknown, status: 200 | 400 | 403 | 409 | 413 | 422 | 503 = 200) => c.json(body, status, API_HEADERS);

  function linkedOr403(c: Context<ApiEnv>) {
    const { linked } = c.get("caller");
    return { linked, refusal: linked === undefined ? notLinked(c, deps.i18n) : undefined };
  }

  const blockText = (locale: string, block: QuoteBlock): string =>
    block.reason === "daily_cap" || block.reason === "monthly_cap"
      ? deps.i18n.t(locale, `mini-app-order-blocked-${block.reason === "daily_cap" ? "daily" : "monthly"}`, {
          cap: formatTrx(BigInt(block.capSun), locale),
          spent: formatTrx(BigInt(block.spentSun), locale),
        })
      : deps.i18n.t(locale, `mini-app-order-blocked-${block.reason.replace("_", "-")}`);

  return (api: Hono<ApiEnv>) => {
    api.get("/order/options", async (c) => {
      const { chatId, locale } = c.get("caller");
      const { refusal } = linkedOr403(c);
      if (refusal) return refusal;
      const amountText = c.req.query("amount") ?? String(AMOUNT_PRESETS[0]);
      if (!/^\d{1,12}$/.test(amountText)) return json(c, { error: "bad_request" }, 400);
      const amount = Number(amountText);
      let pricing;
      try {
        pricing = await deps.pricing.get();
      } catch {
        return json(c, { error: "pricing_unavailable", message: deps.i18n.t(locale, "mini-app-order-pricing-unavailable") }, 503);
      }
      const book = await deps.flows.addressBook.list(chatId);
      return json(c, {
        ...formBasics(book, pricing, locale),
        // Each tier's total for the amount shown, exact: units × the tier's price per unit, in sun.
        tiers: pricing.tiers.map((tier) => {
          const totalSun = BigInt(tier.unitPriceSun) * BigInt(amount);
          return {
            durationSec: tier.durationSec,
            durationText: durationText(tr(locale), tier.durationSec),
            unitPriceSun: String(tier.unitPriceSun),
            totalSun: totalSun.toString(),
            totalTrx: formatTrx(totalSun, locale),
          };
        }),
      });
    });

    api.post("/order/quote", apiBodyLimit, async (c) => {
      const { locale } = c.get("caller");
      const { linked, refusal } = linkedOr403(c);
      if (refusal) return refusal;
      const body = await readJsonObject(c);
      const receiver = typeof body?.["receiver"] === "string" ? body["receiver"].trim() : "";
      const amount = body?.["amount"];
      const durationSec = body?.["durationSec"];
      if (!isValidTronAddress(receiver)) return json(c, { error: "bad_receiver", message: deps.i18n.t(locale, "mini-app-order-bad-receiver") }, 422);
      if (typeof amount !== "number" || !Number.isSafeInteger(amount) || typeof durationSec !== "number" || !Number.isSafeInteger(durationSec)) {
        return json(c, { error: "bad_request" }, 400);
      }
      const pricing = await deps.pricing.get().catch(() => undefined);
      if (pricing !== undefined && (amount < pricing.amountMin || amount > pricing.amountMax)) {
        const bounds = { min: formatInteger(pricing.amountMin, locale), max: formatInteger(pricing.amountMax, locale) };
        return json(c, { error: "bad_amount", message: deps.i18n.t(locale, "mini-app-order-bad-amount", bounds) }, 422);
      }
      // The chat's own use case: priced, capped and stored with its Idempotency-Key exactly as /order's quote.
      const result = await prepareQuote(deps.quoteDeps, linked, [{ toAddress: receiver, amount, durationSec }]);
      if (!result.ok) {
        const key =
          result.reason === "pricing_unavailable"
            ? "mini-app-order-pricing-unavailable"
            : result.reason === "contract_receiver"
              ? "mini-app-order-bad-receiver"
              : "mini-app-order-failed";
        return json(c, { error: result.reason, message: deps.i18n.t(locale, key) }, result.reason === "pricing_unavailable" ? 503 : 422);
      }
      const { quote, balance, blocked, secondTapAboveSun } = result.prepared;
      const short = blocked === undefined && balance !== null && BigInt(balance.availableSun) < BigInt(quote.totalSun);
      return json(c, {
        quoteId: quote.quoteId,
        receiver,
        amountText: formatInteger(amount, locale),
        durationText: durationText(tr(locale), durationSec),
        totalSun: quote.totalSun,
        totalTrx: formatTrx(BigInt(quote.totalSun), locale),
        expiresAtMs: quote.expiresAtMs,
        balanceAfterTrx: balance === null ? null : formatTrx(BigInt(balance.availableSun) - BigInt(quote.totalSun), locale),
        blocked: blocked === undefined ? null : blockText(locale, blocked),
        short: short ? deps.i18n.t(locale, "mini-app-order-short", { balance: formatTrx(BigInt(balance.availableSun), locale) }) : null,
        secondTap: secondTapAboveSun !== undefined,
      });
    });

    api.post("/order/confirm", apiBodyLimit, async (c) => {
      const { chatId, locale } = c.get("caller");
      const { linked, refusal } = linkedOr403(c);
      if (refusal || linked === undefined) return refusal;
      const body = await readJsonObject(c);
      const quoteId = body?.["quoteId"];
      if (typeof quoteId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(quoteId)) return json(c, { error: "bad_request" }, 400);
      // The chat's Confirm: the quote's key, caps and second tap; a quote of another chat is not found.
      const result = await deps.flows.placer.place({ chatId, quoteId, apiKey: linked.apiKey, locale, confirmedAgain: body?.["confirmedAgain"] === true });
      log.info({ chatId, status: result.status }, "mini app order confirmed");
      const t = (key: string, vars: Record<string, string> = {}) => deps.i18n.t(locale, key, vars);
      switch (result.status) {
        case "placed":
          return json(c, {
            status: "placed",
            orderIds: result.orders.map((o) => o.orderId),
            message: t(result.alreadyPlaced ? "mini-app-order-already-placed" : "mini-app-order-placed"),
          });
        case "needs_second_tap":
          return json(
            c,
            { status: "needs_second_tap", message: t("mini-app-order-second-tap", { total: formatTrx(BigInt(result.quote.totalSun), locale) }) },
            409,
          );
        case "over_limit":
          return json(c, { status: "over_limit", message: t("mini-app-order-over-limit") }, 409);
        case "expired":
        case "cancelled":
        case "not_found":
        case "settled":
          return json(c, { status: result.status, message: t("mini-app-order-expired") }, 409);
        case "failed":
          return json(
            c,
            {
              status: "failed",
              retryable: result.retryable,
              message: t(result.error.status === 402 ? "mini-app-order-insufficient" : "mini-app-order-failed"),
            },
            result.error.status === 402 ? 409 : 503,
          );
      }
    });
  };
}
