/**
 * The Keep charged screen's API: the chat's plans with the chat's Pause / Resume / Stop, a New plan form and
 * an Edit form. Both forms are read by the keep proposal's own rules (`readKeepForm`, `readKeepEdit`: the
 * address book's resolver, the service's amount bounds, the tiers, `/keep`'s option parser with the chat's
 * presets) and answered in the chat's words. Start is the chat's ✅ Start: a stored proposal made into a plan
 * by `createFromDraft`, frozen accounts refused, and the plan's card a message in the chat.
 */
import type { Context, Hono } from "hono";
import type { Logger } from "pino";
import {
  formatHours,
  KEEP_WINDOW_PRESETS,
  keepCapPresetsTrx,
  keepCardText,
  keepDraftText,
  keepEditText,
  keepTime,
  keepUncappedDaySun,
  parseActiveHours,
  priceKeepDraft,
  readKeepEdit,
  readKeepForm,
  saveKeepDraft,
  type KeepCardOpener,
  type KeepDraft,
  type KeepLimitsChoice,
  type KeepPlan,
  type KeepPlans,
  type KeepWindowPreset,
  type PlanAction,
} from "../features/keep/index.js";
import type { Flows } from "../shared/flows.js";
import { SUN_PER_TRX } from "../shared/money.js";
import { sortedTiers } from "../shared/orders/order-input.js";
import type { PricingCache } from "../platform/service/pricing-cache.js";
import type { Pricing } from "../platform/service/schemas.js";
import { echo } from "../bot/helpers/echo.js";
import { formatChoices, formatTrx } from "../bot/helpers/format.js";
import { translate } from "../bot/helpers/html.js";
import { orderPartErrorText } from "../bot/helpers/order-part-error.js";
import { durationText, type Translator } from "../bot/helpers/record-text.js";
import { tierLabel } from "../bot/helpers/tiers.js";
import { visibleText } from "../bot/helpers/visible-text.js";
import type { Translations } from "../bot/i18n.js";
import { API_HEADERS, type ApiEnv, type ApiRoutes } from "./mini-app-api.js";
import { apiBodyLimit, readJsonObject, unlinkedRefusal } from "./api-request.js";
import { formBasics } from "./mini-app-order.js";

/** The chat's own amount presets (features/order/order-steps.ts), within the service's bounds. */
/** The window presets' buttons, named as the chat's limits step names them. */
const WINDOW_LABELS = { t: "keep-options-tonight-button", d: "keep-options-day-button", h: "keep-options-work-button" } as const satisfies Record<
  KeepWindowPreset,
  string
>;

export interface MiniAppKeepDeps {
  i18n: Translations;
  pricing: Pick<PricingCache, "get">;
  flows: Pick<Flows, "limits" | "addressBook" | "now">;
  /** Keep-charged plans; without them the screen says the chat has none to run. */
  keep?: Pick<KeepPlans, "list" | "act" | "update" | "spentToday" | "createFromDraft" | "drawCard" | "store">;
  /** Sends the message a plan started here becomes the card of; without it no plan is started here. */
  openCard?: KeepCardOpener;
  logger: Logger;
}

type Status = 200 | 400 | 403 | 404 | 409 | 422 | 503;

export function miniAppKeepRoutes(deps: MiniAppKeepDeps): ApiRoutes {
  const log = deps.logger.child({ component: "mini-app-keep" });
  const { limits } = deps.flows;
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });
  const json = (c: Context<ApiEnv>, body: unknown, status: Status = 200) => c.json(body, status, API_HEADERS);
  /** A chat's words as plain text: the chat's own messages carry HTML the page never renders. */
  const plain = (text: string) => visibleText(text);
  const said = (locale: string, key: string, vars: Record<string, string | number> = {}) => plain(translate(tr(locale), key, vars));

  const refusedUnlinked = unlinkedRefusal(deps);

  /** The limits as a form sends them: each a preset's code, a cap's amount, none (null), or `"="` (an edit keeps it). */
  function limitsOf(body: Record<string, unknown>): KeepLimitsChoice | undefined {
    const window = (value: unknown, option: "until" | "hours"): KeepLimitsChoice["until"] | undefined => {
      if (value === null || value === undefined) return null;
      if (value === "=") return "=";
      return typeof value === "string" && Object.hasOwn(KEEP_WINDOW_PRESETS, value) && KEEP_WINDOW_PRESETS[value as KeepWindowPreset].option === option
        ? (value as KeepWindowPreset)
        : undefined;
    };
    const until = window(body["until"], "until");
    const hours = window(body["hours"], "hours");
    const capValue = body["cap"];
    const cap = capValue === null || capValue === undefined ? null : typeof capValue === "string" && capValue.length <= 20 ? capValue : undefined;
    return until === undefined || hours === undefined || cap === undefined ? undefined : { until, hours, cap };
  }

  /** The cap presets around what a day of the plan costs: the chat's limits step's buttons. */
  function capPresets(draft: KeepDraft, locale: string) {
    return keepCapPresetsTrx(keepUncappedDaySun(draft)).map((trx) => {
      const sun = BigInt(trx) * SUN_PER_TRX;
      return { value: String(trx), sun: sun.toString(), label: deps.i18n.t(locale, "keep-options-cap-button", { capTrx: formatTrx(sun, locale) }) };
    });
  }

  /** The refusal `/keep` would give the same plan typed in one line. */
  function refusalText(locale: string, pricing: Pricing, error: { reason: string; option?: string; value?: string }): string {
    if (error.reason === "bad_option" && error.option !== undefined) return said(locale, `keep-bad-${error.option}`, { value: echo(error.value ?? "") });
    const durations = formatChoices(
      sortedTiers(pricing.tiers).map((t) => tierLabel(tr(locale), t)),
      locale,
    );
    const text = orderPartErrorText(tr(locale), error, durations, locale);
    return text === undefined ? said(locale, "keep-usage", { durations }) : plain(text);
  }

  async function pricingOr503(c: Context<ApiEnv>): Promise<Pricing | Response> {
    try {
      return await deps.pricing.get();
    } catch {
      return json(c, { error: "pricing_unavailable", message: deps.i18n.t(c.get("caller").locale, "mini-app-order-pricing-unavailable") }, 503);
    }
  }

  /** Reads a New plan form: the proposal as the chat would store it, or the chat's refusal. */
  async function readNew(c: Context<ApiEnv>, body: Record<string, unknown>, pricing: Pricing) {
    const { chatId, locale } = c.get("caller");
    const receiver = typeof body["receiver"] === "string" ? body["receiver"].trim() : undefined;
    const amount = body["amount"];
    const durationSec = body["durationSec"];
    const chosen = limitsOf(body);
    if (
      receiver === undefined ||
      receiver.length > 100 ||
      typeof amount !== "number" ||
      !Number.isSafeInteger(amount) ||
      typeof durationSec !== "number" ||
      !Number.isSafeInteger(durationSec) ||
      chosen === undefined
    ) {
      return { response: json(c, { error: "bad_request" }, 400) };
    }
    const nowMs = deps.flows.now();
    const chatZone = await limits.timeZoneOf(chatId);
    const read = await readKeepForm(
      pricing,
      (text) => deps.flows.addressBook.resolve(chatId, text),
      { chatId, receiver, amount, durationSec, limits: chosen },
      { nowMs, locale, chatZone },
    );
    if (!read.ok) {
      if (read.reason === "bad_request") return { response: json(c, { error: "bad_request" }, 400) };
      return { response: json(c, { error: read.reason, message: refusalText(locale, pricing, read) }, 422) };
    }
    return { input: read.input, nowMs, chatZone };
  }

  function planView(plan: KeepPlan, locale: string, clock: { nowMs: number; locale: string; timeZone: string }) {
    const hours = plan.activeHours === undefined ? null : formatHours(plan.activeHours);
    const work = parseActiveHours(KEEP_WINDOW_PRESETS.h.text.slice("hours=".length));
    const isWork = work !== undefined && plan.activeHours?.fromMin === work.fromMin && plan.activeHours.toMin === work.toMin;
    const capWhole =
      plan.dailyCapSun !== undefined && BigInt(plan.dailyCapSun) % SUN_PER_TRX === 0n ? (BigInt(plan.dailyCapSun) / SUN_PER_TRX).toString() : null;
    return {
      planId: plan.planId,
      state: plan.state,
      // The plan card's digest, as the chat shows it.
      text: plain(keepCardText(tr(locale), plan, deps.keep!.spentToday(plan), clock)),
      // What the Edit form starts from: the plan's own limits, the presets it matches marked.
      limits: {
        until: plan.endsAtMs === undefined ? null : { atMs: plan.endsAtMs, text: plain(keepTime(plan.endsAtMs, clock)) },
        hours: hours === null ? null : { text: hours, preset: isWork ? "h" : null },
        cap: plan.dailyCapSun === undefined ? null : { sun: plan.dailyCapSun, trx: formatTrx(BigInt(plan.dailyCapSun), locale), value: capWhole },
      },
    };
  }

  return (api: Hono<ApiEnv>) => {
    api.get("/keep", async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const plans = deps.keep === undefined ? [] : await deps.keep.list(chatId);
      const clock = { nowMs: deps.flows.now(), locale, timeZone: await limits.timeZoneOf(chatId) };
      return json(c, { plans: plans.map((plan) => planView(plan, locale, clock)), canStart: deps.keep !== undefined && deps.openCard !== undefined });
    });

    // The chat's Pause / Resume / Stop: the plans redraw the plan's card in the chat themselves.
    api.post("/keep/act", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const body = (await readJsonObject(c)) ?? {};
      const planId = body["planId"];
      const action = body["action"];
      if (deps.keep === undefined || typeof planId !== "string" || planId.length > 64 || (action !== "pause" && action !== "resume" && action !== "stop")) {
        return json(c, { error: "bad_request" }, 400);
      }
      // A frozen account resumes nothing, as in the chat: said at the button.
      if (action === "resume" && (await limits.isFrozen(chatId))) return json(c, { error: "frozen", message: said(locale, "keep-refused-frozen") }, 409);
      const result = await deps.keep.act(chatId, planId, action satisfies PlanAction);
      if (!result.ok && result.reason === "not_found") return json(c, { error: "not_found", message: said(locale, "button-expired") }, 404);
      return json(c, { ok: result.ok, message: said(locale, result.ok ? `keep-done-${action}` : `keep-already-${result.reason}`) });
    });

    /** What the New plan form offers: the address book, the chat's amount presets, the tiers, the limits' presets. */
    api.get("/keep/options", async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const pricing = await pricingOr503(c);
      if (pricing instanceof Response) return pricing;
      const book = await deps.flows.addressBook.list(chatId);
      return json(c, {
        ...formBasics(book, pricing, locale),
        tiers: sortedTiers(pricing.tiers).map((tier) => ({ durationSec: tier.durationSec, durationText: durationText(tr(locale), tier.durationSec) })),
        windows: (Object.keys(WINDOW_LABELS) as KeepWindowPreset[]).map((code) => ({
          code,
          option: KEEP_WINDOW_PRESETS[code].option,
          label: deps.i18n.t(locale, WINDOW_LABELS[code]),
        })),
      });
    });

    // The proposal as the chat words it, with the cap presets around what a day of it costs; nothing is stored.
    api.post("/keep/preview", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { locale, chatId } = c.get("caller");
      const pricing = await pricingOr503(c);
      if (pricing instanceof Response) return pricing;
      const read = await readNew(c, (await readJsonObject(c)) ?? {}, pricing);
      if (read.response) return read.response;
      const draft = priceKeepDraft(pricing, read.nowMs, read.input)!;
      const clock = { nowMs: read.nowMs, locale, timeZone: await limits.timeZoneOf(chatId) };
      return json(c, { text: plain(keepDraftText(tr(locale), draft, clock)), capPresets: capPresets(draft, locale) });
    });

    // ✅ Start: the proposal stored and made into a plan as the chat's Start makes it, its card a message in the chat.
    api.post("/keep/start", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      if (deps.keep === undefined || deps.openCard === undefined)
        return json(c, { error: "unavailable", message: said(locale, "mini-app-keep-unavailable") }, 503);
      const pricing = await pricingOr503(c);
      if (pricing instanceof Response) return pricing;
      const read = await readNew(c, (await readJsonObject(c)) ?? {}, pricing);
      if (read.response) return read.response;
      // A frozen account starts nothing, as in the chat.
      if (await limits.isFrozen(chatId)) return json(c, { error: "frozen", message: said(locale, "keep-refused-frozen") }, 409);
      const { linked } = c.get("caller");
      const draft = await saveKeepDraft(deps.keep, read.nowMs, pricing, read.input);
      if (linked === undefined || draft === undefined) return json(c, { error: "bad_request" }, 400);
      let cardMessageId: number;
      try {
        cardMessageId = await deps.openCard(chatId, locale);
      } catch (error) {
        // No card, no plan: one would run with nothing in the chat to follow or stop it by.
        log.warn({ err: error, chatId }, "keep plan card not sent; no plan started");
        await deps.keep.store.deleteDraft(draft.draftId);
        return json(c, { error: "card_not_sent", message: said(locale, "mini-app-keep-card-failed") }, 503);
      }
      const { linkId } = linked.record;
      const plan = await deps.keep.createFromDraft(draft, { locale, cardMessageId, ...(linkId === undefined ? {} : { linkId }) });
      await deps.keep.drawCard(chatId, plan.planId);
      log.info({ chatId, planId: plan.planId }, "keep plan started from the mini app");
      return json(c, { planId: plan.planId, state: plan.state, message: said(locale, "mini-app-keep-started") });
    });

    // Edit: new limits for a plan, read as a proposal's; `preview` only draws them.
    api.post("/keep/edit", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const body = (await readJsonObject(c)) ?? {};
      const planId = body["planId"];
      const chosen = limitsOf(body);
      if (deps.keep === undefined || typeof planId !== "string" || planId.length > 64 || chosen === undefined) return json(c, { error: "bad_request" }, 400);
      const plan = await deps.keep.store.get(planId);
      if (plan?.chatId !== chatId) return json(c, { error: "not_found", message: said(locale, "button-expired") }, 404);
      const nowMs = deps.flows.now();
      const read = readKeepEdit(plan, chosen, { nowMs, locale });
      if (!read.ok) {
        if (read.reason === "bad_request") return json(c, { error: "bad_request" }, 400);
        return json(c, { error: read.reason, message: said(locale, `keep-bad-${read.option}`, { value: echo(read.value) }) }, 422);
      }
      const clock = { nowMs, locale, timeZone: await limits.timeZoneOf(chatId) };
      if (body["preview"] === true) {
        const pricing = await pricingOr503(c);
        if (pricing instanceof Response) return pricing;
        const { endsAtMs: _e, dailyCapSun: _c, activeHours: _h, ...terms } = plan;
        const edited = priceKeepDraft(pricing, nowMs, {
          ...terms,
          ...(read.limits.endsAtMs === undefined ? {} : { endsAtMs: read.limits.endsAtMs }),
          ...(read.limits.dailyCapSun === undefined ? {} : { dailyCapSun: read.limits.dailyCapSun.toString() }),
          ...(read.limits.activeHours === undefined ? {} : { activeHours: read.limits.activeHours }),
        });
        // A tier gone since the plan was made: its terms without today's price.
        const text =
          edited === undefined ? plain(keepCardText(tr(locale), plan, deps.keep.spentToday(plan), clock)) : plain(keepEditText(tr(locale), edited, clock));
        return json(c, { text, capPresets: edited === undefined ? [] : capPresets(edited, locale) });
      }
      const result = await deps.keep.update(chatId, planId, read.limits);
      if (!result.ok) {
        return json(
          c,
          { error: result.reason, message: said(locale, result.reason === "stopped" ? "keep-already-stopped" : "button-expired") },
          result.reason === "stopped" ? 409 : 404,
        );
      }
      return json(c, { plan: planView(result.plan, locale, clock), message: said(locale, "mini-app-keep-edited") });
    });
  };
}
