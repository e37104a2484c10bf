/**
 * Every message id exists in every locale with the same variables, every
 * file parses cleanly, every text is valid Telegram HTML, and the ids the
 * code relies on (errors, command descriptions) exist. Parsed with
 * @fluent/bundle's FluentResource (a dependency of @grammyjs/i18n).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FluentResource } from "@fluent/bundle";
import { I18n } from "@grammyjs/i18n";
import { describe, expect, it } from "vitest";
import { LOCALES_DIRECTORY } from "../src/bot/i18n.js";
import { ERROR_TEXTS } from "../src/bot/helpers/error-text.js";
import { BOT_COMMANDS } from "../src/bot/register-commands.js";
import { SUPPORTED_LOCALES } from "../src/config.js";
import { BROADCAST_STATUSES, ORDER_STATUSES } from "../src/core/service/schemas.js";
import { parseHtml } from "./support/fake-telegram-format.js";

type Node = unknown;

/** Variable names referenced anywhere in a pattern (selectors and variants included). */
function variablesOf(node: Node, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) variablesOf(item, out);
  } else if (node && typeof node === "object") {
    const n = node as Record<string, unknown>;
    if (n.type === "var" && typeof n.name === "string") out.add(n.name);
    for (const value of Object.values(n)) variablesOf(value, out);
  }
  return out;
}

interface Entry {
  vars: string[];
  file: string;
}

/** "id" and "id.attribute" -> variables, for one locale (all its files). */
function loadLocale(locale: string): { entries: Map<string, Entry>; problems: string[] } {
  const entries = new Map<string, Entry>();
  const problems: string[] = [];
  const dir = join(LOCALES_DIRECTORY, locale);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
    const source = readFileSync(join(dir, file), "utf8");
    const resource = new FluentResource(source) as unknown as { body: { id: string; value: Node; attributes: Record<string, Node> }[] };
    // FluentResource skips junk silently: every definition line must have become a message.
    const defined = source.split("\n").filter((line) => /^-?[a-zA-Z][\w-]*\s*=/.test(line)).length;
    if (defined !== resource.body.length) problems.push(`${locale}/${file}: ${defined - resource.body.length} entries failed to parse`);
    for (const message of resource.body) {
      if (entries.has(message.id)) problems.push(`${locale}/${file}: duplicate id ${message.id}`);
      if (message.value !== null) entries.set(message.id, { vars: [...variablesOf(message.value)].sort(), file });
      for (const [attribute, pattern] of Object.entries(message.attributes ?? {})) {
        entries.set(`${message.id}.${attribute}`, { vars: [...variablesOf(pattern)].sort(), file });
      }
    }
  }
  return { entries, problems };
}

const locales = Object.fromEntries(SUPPORTED_LOCALES.map((l) => [l, loadLocale(l)]));
const reference = locales.en!.entries;

describe("locales", () => {
  it("every .ftl file parses without junk or duplicates", () => {
    expect(SUPPORTED_LOCALES.flatMap((l) => locales[l]!.problems)).toEqual([]);
  });

  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale} has exactly the message ids of en, with the same variables`, () => {
      const entries = locales[locale]!.entries;
      expect([...entries.keys()].sort()).toEqual([...reference.keys()].sort());
      for (const [id, entry] of reference) expect(entries.get(id)?.vars, `${locale}: ${id}`).toEqual(entry.vars);
    });

    it(`${locale}: every text is valid Telegram HTML`, () => {
      const dir = join(LOCALES_DIRECTORY, locale);
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
        const resource = new FluentResource(readFileSync(join(dir, file), "utf8")) as unknown as { body: { id: string; value: Node }[] };
        for (const message of resource.body) {
          const text = flatten(message.value);
          const parsed = parseHtml(text);
          expect(parsed.ok, `${locale}/${file} ${message.id}: ${parsed.ok ? "" : parsed.description}`).toBe(true);
        }
      }
    });
  }

  it("every error code and every menu command has its text", () => {
    for (const { key } of Object.values(ERROR_TEXTS)) expect(reference.has(key), key).toBe(true);
    expect(reference.has("error-unknown")).toBe(true);
    for (const { command } of BOT_COMMANDS) expect(reference.has(`${command}.description`), command).toBe(true);
  });

  it("English names every API status exactly as the API spells it (fulfilled, confirmed, failed, expired …)", () => {
    const i18n = new I18n({ defaultLocale: "en", directory: LOCALES_DIRECTORY, fluentBundleOptions: { useIsolating: false } });
    const statuses = [...new Set([...ORDER_STATUSES, ...BROADCAST_STATUSES])];
    expect(statuses).toEqual(expect.arrayContaining(["fulfilled", "confirmed", "failed", "expired"]));
    for (const status of statuses) expect(i18n.t("en", "tracking-status", { status }), status).toBe(status);
  });

  it("Russian calls a broadcast «отправка» everywhere, never «трансляция» (a video stream)", () => {
    const dir = join(LOCALES_DIRECTORY, "ru");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
      expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(/трансляц/i);
    }
  });

  it("ids follow <feature>-<thing> (commands: <command>.description)", () => {
    for (const id of reference.keys()) expect(id).toMatch(/^([a-z]+(-[a-z0-9_]+)+|[a-z_]+\.description)$/);
  });
});

/** The pattern's literal text with placeholders as plain words (for the HTML check). */
function flatten(node: Node): string {
  if (node === null || node === undefined) return "x";
  if (typeof node === "string") return node;
  if (Array.isArray(node)) return node.map((n) => (typeof n === "string" ? n : "x")).join("");
  return "x";
}
