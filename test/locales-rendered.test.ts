/**
 * Every message of every .ftl file, rendered in ru and zh with arguments like
 * the ones the bot passes, reads as Russian or Chinese: no common English
 * word and no raw API code (`delivery_failed`, `order.fulfilled`) outside a
 * <code> span. Each select expression is rendered once per variant, plus once
 * with a value no variant names (the service adds statuses and reasons over
 * time). The statement chart's title and axes come from the same locales.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Message, NumberLiteral, parse, VariableReference, Visitor, type Pattern, type SelectExpression } from "@fluent/syntax";
import { describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIRECTORY } from "../src/bot/i18n.js";
import { createLogger } from "../src/platform/logger.js";
import { SUPPORTED_LOCALES } from "../src/config.js";
import { BROADCAST_STATUSES, ORDER_STATUSES } from "../src/platform/service/schemas.js";
import { finalText, statusText, type Translator } from "../src/bot/helpers/record-text.js";
import type { Broadcast } from "../src/platform/service/schemas.js";
import { foreignWords } from "./support/foreign-words.js";

interface Shape {
  vars: Set<string>;
  /** Selector variable -> the keys its variants name (number keys as numbers). */
  selectors: Map<string, Set<string | number>>;
}

class ShapeCollector extends Visitor {
  readonly shape: Shape = { vars: new Set(), selectors: new Map() };
  override visitVariableReference(node: VariableReference): void {
    this.shape.vars.add(node.id.name);
  }
  override visitSelectExpression(node: SelectExpression): void {
    if (node.selector instanceof VariableReference) {
      const name = node.selector.id.name;
      const keys = this.shape.selectors.get(name) ?? new Set();
      for (const variant of node.variants) {
        keys.add(variant.key instanceof NumberLiteral ? Number(variant.key.value) : variant.key.name);
      }
      this.shape.selectors.set(name, keys);
    }
    this.genericVisit(node);
  }
}

/** Every message and attribute id of every locale, with its variables and selectors across all locales. */
function messageShapes(): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  const add = (id: string, pattern: Pattern | null) => {
    if (!pattern) return;
    const collector = new ShapeCollector();
    collector.visit(pattern);
    const shape = shapes.get(id) ?? { vars: new Set<string>(), selectors: new Map<string, Set<string | number>>() };
    for (const v of collector.shape.vars) shape.vars.add(v);
    for (const [name, keys] of collector.shape.selectors) shape.selectors.set(name, new Set([...(shape.selectors.get(name) ?? []), ...keys]));
    shapes.set(id, shape);
  };
  for (const locale of SUPPORTED_LOCALES) {
    const dir = join(LOCALES_DIRECTORY, locale);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
      for (const entry of parse(readFileSync(join(dir, file), "utf8"), { withSpans: false }).body) {
        if (!(entry instanceof Message)) continue;
        add(entry.id.name, entry.value);
        for (const attribute of entry.attributes) add(`${entry.id.name}.${attribute.id.name}`, attribute.value);
      }
    }
  }
  return shapes;
}

/** Variables the bot passes as numbers (Fluent formats and pluralises them). */
const NUMBER_VARS = new Set(
  `count n minutes seconds hours page pages line column max min poolCount activeCount inactiveCount retryAfterSec profitSharePercent
  paymentHours paymentHoursMin paymentHoursMax lines slots refunds orders broadcasts fulfilled inProgress matchable limit remaining
  reserved second first units permissionId depth index header size expected number`.split(/\s+/),
);

/** A value shaped like what the bot passes for a variable of this name (ids, codes and addresses in <code>, as the bot sends them). */
function representative(name: string): string | number {
  const n = name.toLowerCase();
  if (NUMBER_VARS.has(name)) return 3;
  if (n.endsWith("trx") || n.endsWith("sun") || /^(amount|energy|total|price|cost|available|delegated|sampleamount|amountmin|amountmax|cap|resource)$/.test(n))
    return "1 234,5";
  if (/(id|txid|address|receiver|from|to|contract|holder|lock|code|command|example|track|reset|registerpath|input|value|entry|label|labels)$/.test(n))
    return "<code>X1</code>";
  if (n === "url") return "https://example.org/x";
  if (n === "username") return "@bot";
  if (/^(time|at|updatedat|ends|month)$/.test(n)) return "2026-11-05 17:43";
  return "…";
}

/** API values some messages receive verbatim, beyond their own variant keys. */
const API_VALUES: Record<string, readonly string[]> = {
  status: [...ORDER_STATUSES, ...BROADCAST_STATUSES],
  reason: ["delivery_failed", "expired_before_confirmation"],
};
/**
 * Messages that receive the service's word verbatim (a status, a failure
 * reason) and must turn it into the chat's language themselves.
 */
const RAW_VALUE_MESSAGES: Record<string, string> = {
  "tracking-status": "status",
  "tracking-status-meaning": "status",
  "tracking-reason": "reason",
};

/** A value no variant names: what the service may send tomorrow. */
const NEW_API_VALUE = "brand_new_value";

/** Argument sets for one message: the representative ones, then each selector value in turn. */
function argumentSets(id: string, shape: Shape): Record<string, string | number>[] {
  const base: Record<string, string | number> = {};
  for (const v of shape.vars) base[v] = representative(v);
  const sets = [base];
  const selectors = new Map(shape.selectors);
  const raw = RAW_VALUE_MESSAGES[id];
  if (raw !== undefined && !selectors.has(raw)) selectors.set(raw, new Set());
  for (const [name, keys] of selectors) {
    const plural = [...keys].every((k) => typeof k === "number" || PLURAL_CATEGORIES.has(k));
    const values = new Set<string | number>();
    if (plural && keys.size > 0) for (const count of [0, 1, 2, 5, 21, ...[...keys].filter((k) => typeof k === "number")]) values.add(count);
    else {
      for (const key of keys) if (key !== "other") values.add(key);
      for (const value of [...(API_VALUES[name] ?? []), NEW_API_VALUE]) values.add(value);
    }
    for (const value of values) sets.push({ ...base, [name]: value });
  }
  return sets;
}

const PLURAL_CATEGORIES = new Set<string | number>(["zero", "one", "two", "few", "many", "other"]);

const i18n = createI18n({
  defaultLocale: "en",
  directory: LOCALES_DIRECTORY,
  storedLocale: () => Promise.resolve(undefined),
  logger: createLogger({ level: "silent" }),
});
const shapes = messageShapes();

describe("every message renders in the chat's language", () => {
  it("finds the English words and raw codes it is meant to find", () => {
    expect(foreignWords("Статус: pending (в очереди)")).toEqual(["pending"]);
    expect(foreignWords("失败（failed）")).toEqual(["failed"]);
    expect(foreignWords("服务给出的原因：delivery_failed")).toEqual(["delivery_failed"]);
    expect(foreignWords("Событие order.fulfilled")).toEqual(["order.fulfilled"]);
    expect(foreignWords("2026-11 · TRX per day")).toEqual(["per", "day"]);
    expect(foreignWords("Код <code>delivery_failed</code>, /order_status, см. https://a.b/c_d, 100 TRX, USDT, Mini App, UTC+3, Europe/Moscow")).toEqual([]);
  });

  for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
    it(`${locale}: no English word and no raw API code outside <code>, in any variant`, () => {
      const found: string[] = [];
      for (const [id, shape] of shapes) {
        const [message, attribute] = id.split(".");
        for (const args of argumentSets(id, shape)) {
          const text = attribute === undefined ? i18n.t(locale, message!, args) : i18n.t(locale, `${message!}.${attribute}`, args);
          const foreign = foreignWords(text);
          if (foreign.length > 0) found.push(`${id} ${JSON.stringify(args)}: ${foreign.join(", ")} in ${JSON.stringify(text)}`);
        }
      }
      expect([...new Set(found)]).toEqual([]);
    });
  }
});

describe("texts the bot composes from the service's words", () => {
  const tr = (locale: string): Translator => ({ t: (key, vars) => i18n.t(locale, key, vars) });
  const broadcast = (status: string, failureReason: string | null): Broadcast => ({
    broadcastId: "b".repeat(32),
    kind: "usdt",
    status,
    txId: "a".repeat(64),
    fromAddress: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
    toAddress: "TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy",
    resource: "energy",
    resourceRequired: 65_000,
    energyRequired: 65_000,
    totalCostSun: 6_500_000,
    failureReason,
    txExpirationMs: Date.UTC(2026, 10, 5, 12, 10),
    createdAt: "2026-11-05T12:00:00Z",
    updatedAt: "2026-11-05T12:01:00Z",
  });

  for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
    it(`${locale}: a status is a word of the language, an unknown one the service's code in a code span`, () => {
      for (const status of [...ORDER_STATUSES, ...BROADCAST_STATUSES]) {
        const shown = statusText(tr(locale), status).value;
        expect(foreignWords(shown), `${status}: ${shown}`).toEqual([]);
      }
      expect(statusText(tr(locale), "queued_for_review").value).toContain("<code>queued_for_review</code>");
    });

    it(`${locale}: a known failure reason is a sentence, an unknown one is named as the service's code`, () => {
      const nowMs = Date.UTC(2026, 10, 5, 12, 2);
      for (const [status, reason] of [
        ["failed", "delivery_failed"],
        ["expired", "expired_before_confirmation"],
        ["failed", null],
      ] as const) {
        const text = finalText(tr(locale), { kind: "broadcast", record: broadcast(status, reason) }, locale, nowMs);
        expect(foreignWords(text), text).toEqual([]);
      }
      const unknown = finalText(tr(locale), { kind: "broadcast", record: broadcast("failed", "mempool_full") }, locale, nowMs);
      expect(foreignWords(unknown)).toEqual([]);
      expect(unknown).toContain("<code>mempool_full</code>");
    });
  }
});
