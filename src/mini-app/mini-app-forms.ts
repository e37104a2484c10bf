/**
 * The Limits and Addresses screens' API: the chat's settings as forms, each change made by
 * the chat's own use case with the chat's own validation (the /limits parser and presets, the address
 * book's address and label checks), and answered in the chat's words. Keep charged is mini-app-keep.ts.
 */
import type { Context, Hono } from "hono";
import { LABEL_MAX_LENGTH } from "../shared/address-book.js";
import type { Flows } from "../shared/flows.js";
import type { LimitField } from "../shared/limits/limit-settings.js";
import { isValidTimeZone } from "../shared/limits/spend-window.js";
import { offsetText, zoneLabel } from "../shared/limits/zone-input.js";
import { offsetsNow, searchTimeZones, zonesAtOffset } from "../shared/limits/zone-search.js";
import { COMMON_TIME_ZONES } from "../bot/callback-data/time-zone.js";
import { SUN_PER_TRX } from "../shared/money.js";
import { LIMIT_PRESETS_TRX, limitsCardText, parseLimitAmount } from "../features/limits/index.js";
import { addressBookRefusalText } from "../bot/helpers/refusal-texts.js";
import { formatTrx } from "../bot/helpers/format.js";
import { translate } from "../bot/helpers/html.js";
import type { Translator } from "../bot/helpers/record-text.js";
import { visibleText } from "../bot/helpers/visible-text.js";
import { ZONE_MATCHES_SHOWN } from "../features/settings/index.js";
import type { Translations } from "../bot/i18n.js";
import { API_HEADERS, type ApiEnv, type ApiRoutes } from "./mini-app-api.js";
import { apiBodyLimit, readJsonObject, unlinkedRefusal } from "./api-request.js";

const FIELD_OF = { d: "dailyCapSun", m: "monthlyCapSun", t: "confirmAboveSun" } as const satisfies Record<string, LimitField>;
type FieldCode = keyof typeof FIELD_OF;

export interface MiniAppFormsDeps {
  i18n: Translations;
  flows: Pick<Flows, "limits" | "addressBook" | "now">;
}

export function miniAppFormsRoutes(deps: MiniAppFormsDeps): ApiRoutes {
  const { limits, addressBook: book } = deps.flows;
  const tr = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });
  const json = (c: Context<ApiEnv>, body: unknown, status: 200 | 400 | 403 | 404 | 409 | 422 = 200) => c.json(body, status, API_HEADERS);
  /** A chat's words as plain text: the chat's own messages carry HTML the page never renders. */
  const plain = (locale: string, key: string, vars: Record<string, string | number> = {}) => visibleText(translate(tr(locale), key, vars));

  const refusedUnlinked = unlinkedRefusal(deps);

  async function limitsState(chatId: number, locale: string) {
    const status = await limits.status(chatId);
    const { settings, spent } = status;
    const amount = (sun: string | undefined) => (sun === undefined ? null : { sun, trx: formatTrx(BigInt(sun), locale) });
    const current: Record<FieldCode, string | undefined> = { d: settings.dailyCapSun, m: settings.monthlyCapSun, t: settings.confirmAboveSun };
    return {
      frozen: settings.frozen,
      caps: Object.fromEntries(
        (Object.keys(FIELD_OF) as FieldCode[]).map((code) => [
          code,
          {
            value: amount(current[code]),
            // /limits' own presets, in whole TRX: a tap sends the same text a user would type.
            presets: LIMIT_PRESETS_TRX[code].map((trx) => ({
              value: String(trx),
              sun: (BigInt(trx) * SUN_PER_TRX).toString(),
              trx: formatTrx(BigInt(trx) * SUN_PER_TRX, locale),
            })),
          },
        ]),
      ),
      spentDay: { sun: spent.daySun.toString(), trx: formatTrx(spent.daySun, locale) },
      spentMonth: { sun: spent.monthSun.toString(), trx: formatTrx(spent.monthSun, locale) },
      zone: zoneLabel(status.timeZone, deps.flows.now()),
      // The chat's /limits card word for word, so the two never disagree on what is in force.
      card: visibleText(limitsCardText(tr(locale), status, locale)),
    };
  }

  return (api: Hono<ApiEnv>) => {
    api.get("/limits", async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      return json(c, await limitsState(chatId, locale));
    });

    // A cap or the threshold: `value` is read by /limits' parser (the locale's TRX, more than 0), null clears it.
    api.post("/limits", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const body = (await readJsonObject(c)) ?? {};
      const code = body["field"];
      const value = body["value"];
      if (typeof code !== "string" || !(code in FIELD_OF) || (value !== null && (typeof value !== "string" || value.length > 40))) {
        return json(c, { error: "bad_request" }, 400);
      }
      const field = FIELD_OF[code as FieldCode];
      if (value === null) {
        await limits.set(chatId, field, undefined);
        return json(c, { ...(await limitsState(chatId, locale)), message: plain(locale, "limits-cleared") });
      }
      const parsed = parseLimitAmount(value.trim(), locale);
      if (!parsed.ok) return json(c, { error: "bad_amount", message: plain(locale, parsed.key, { value: value.trim(), ...parsed.vars }) }, 422);
      await limits.set(chatId, field, parsed.sun);
      return json(c, { ...(await limitsState(chatId, locale)), message: plain(locale, "limits-saved") });
    });

    /**
     * The time zone picker of /settings: with no query its common zones and every offset clocks show now;
     * `q` is read by the same search as a typed city (one zone, several, or /settings' refusal); `offset`
     * lists the places that keep it. Each zone comes with its label as the chat writes it.
     */
    api.get("/limits/zones", (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { locale } = c.get("caller");
      const nowMs = deps.flows.now();
      const labelled = (zones: readonly string[]) => zones.map((zone) => ({ zone, label: zoneLabel(zone, nowMs) }));
      const q = c.req.query("q");
      const offset = c.req.query("offset");
      if (q !== undefined) {
        if (q.length > 64) return json(c, { error: "bad_request" }, 400);
        const found = searchTimeZones(q.trim());
        if (found.kind === "none") {
          const key = found.reason === "uneven_offset" ? "time-zone-uneven" : "time-zone-bad";
          return json(c, { zones: [], message: plain(locale, key, { value: q.trim() }) });
        }
        return json(c, { zones: labelled(found.kind === "one" ? [found.zone] : found.zones.slice(0, ZONE_MATCHES_SHOWN)) });
      }
      if (offset !== undefined) {
        const minutes = /^-?\d{1,4}$/.test(offset) ? Number(offset) : NaN;
        if (!offsetsNow(nowMs).includes(minutes)) return json(c, { error: "bad_request" }, 400);
        return json(c, { zones: labelled(zonesAtOffset(minutes, nowMs)) });
      }
      return json(c, { zones: labelled(COMMON_TIME_ZONES), offsets: offsetsNow(nowMs).map((minutes) => ({ minutes, text: offsetText(minutes) })) });
    });

    // /settings' own setter, with the check its picker's buttons get: a zone Intl knows, by its name.
    api.post("/limits/zone", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const zone = (await readJsonObject(c))?.["zone"];
      if (typeof zone !== "string" || zone.length > 64 || !isValidTimeZone(zone)) return json(c, { error: "bad_request" }, 400);
      await limits.setTimeZone(chatId, zone);
      const message = plain(locale, "time-zone-saved", { zone: zoneLabel(zone, deps.flows.now()) });
      return json(c, { ...(await limitsState(chatId, locale)), message });
    });

    api.post("/limits/freeze", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const frozen = (await readJsonObject(c))?.["frozen"];
      if (typeof frozen !== "boolean") return json(c, { error: "bad_request" }, 400);
      // The chat's Freeze: under the account's lock, and it stops the account's keep plans.
      if (frozen) await limits.freeze(chatId);
      else await limits.unfreeze(chatId);
      return json(c, { ...(await limitsState(chatId, locale)), message: plain(locale, frozen ? "limits-frozen-done" : "limits-unfrozen-done") });
    });

    api.get("/addresses", async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId } = c.get("caller");
      const entries = await book.labelled(chatId);
      return json(c, { entries: entries.map((e) => ({ address: e.address, label: e.label ?? "" })), labelMax: LABEL_MAX_LENGTH });
    });

    // Add (a new address under a label) or rename (a saved one): the book's own checks, the chat's refusals.
    api.post("/addresses", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const body = (await readJsonObject(c)) ?? {};
      const address = typeof body["address"] === "string" ? body["address"].trim() : undefined;
      const label = typeof body["label"] === "string" ? body["label"] : undefined;
      const rename = body["rename"] === true;
      if (address === undefined || label === undefined || address.length > 64 || label.length > 200) return json(c, { error: "bad_request" }, 400);
      const result = rename ? await book.rename(chatId, address, label) : await book.add(chatId, address, label, deps.flows.now());
      if (!result.ok) {
        const typed = result.reason === "bad_address" || result.reason === "not_found" ? address : label;
        return json(c, { error: result.reason, message: visibleText(addressBookRefusalText(tr(locale), result.reason, typed)) }, 422);
      }
      return json(c, { entry: { address: result.entry.address, label: result.entry.label ?? "" }, message: plain(locale, "limits-saved") });
    });

    api.post("/addresses/delete", apiBodyLimit, async (c) => {
      const refusal = refusedUnlinked(c);
      if (refusal) return refusal;
      const { chatId, locale } = c.get("caller");
      const address = (await readJsonObject(c))?.["address"];
      if (typeof address !== "string" || address.length > 64) return json(c, { error: "bad_request" }, 400);
      const found = await book.delete(chatId, address);
      return json(c, found ? { ok: true } : { error: "not_found", message: plain(locale, "addresses-gone") }, found ? 200 : 404);
    });
  };
}
