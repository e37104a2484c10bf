/**
 * Every message id exists in every locale with the same variables, every
 * file parses cleanly, every text is valid Telegram HTML, and the ids the
 * code relies on (errors, command descriptions) exist. Parsed with
 * @fluent/syntax, Fluent's own AST: junk, ids, attributes and variable
 * references come from its public types.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Junk, Message, parse, Term, TextElement, Visitor, type Pattern, type VariableReference } from "@fluent/syntax";
import { describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIRECTORY } from "../src/bot/i18n.js";
import { createLogger } from "../src/platform/logger.js";
import { ERROR_TEXTS } from "../src/bot/helpers/error-text.js";
import { BOT_COMMANDS } from "../src/bot/register-commands.js";
import { SUPPORTED_LOCALES } from "../src/config.js";
import { BROADCAST_STATUSES, ORDER_STATUSES } from "../src/platform/service/schemas.js";
import { parseHtml } from "../testkit/fake-telegram/fake-telegram-format.js";

/** Variable names referenced anywhere in a pattern (selectors and variants included). */
class VariableCollector extends Visitor {
  readonly names = new Set<string>();
  override visitVariableReference(node: VariableReference): void {
    this.names.add(node.id.name);
  }
}

function variablesOf(pattern: Pattern): string[] {
  const collector = new VariableCollector();
  collector.visit(pattern);
  return [...collector.names].sort();
}

interface Entry {
  vars: string[];
  file: string;
  /** The value's text with placeables as plain words (for the HTML check); undefined for attribute-only messages. */
  text: string | undefined;
}

/** "id" and "id.attribute" -> variables, for one locale (all its files). */
function loadLocale(locale: string): { entries: Map<string, Entry>; problems: string[] } {
  const entries = new Map<string, Entry>();
  const problems: string[] = [];
  const dir = join(LOCALES_DIRECTORY, locale);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
    const resource = parse(readFileSync(join(dir, file), "utf8"), { withSpans: false });
    for (const entry of resource.body) {
      if (entry instanceof Junk) {
        problems.push(`${locale}/${file}: unparsable ${JSON.stringify(entry.content.slice(0, 60))} (${entry.annotations.map((a) => a.message).join("; ")})`);
        continue;
      }
      if (!(entry instanceof Message || entry instanceof Term)) continue;
      const id = entry instanceof Term ? `-${entry.id.name}` : entry.id.name;
      if (entries.has(id)) problems.push(`${locale}/${file}: duplicate id ${id}`);
      if (entry.value) entries.set(id, { vars: variablesOf(entry.value), file, text: flatten(entry.value) });
      for (const attribute of entry.attributes) {
        entries.set(`${id}.${attribute.id.name}`, { vars: variablesOf(attribute.value), file, text: undefined });
      }
    }
  }
  return { entries, problems };
}

const locales = Object.fromEntries(SUPPORTED_LOCALES.map((l) => [l, loadLocale(l)]));
const reference = locales["en"]!.entries;

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
      for (const [id, { file, text }] of locales[locale]!.entries) {
        if (text === undefined) continue;
        const parsed = parseHtml(text);
        expect(parsed.ok, `${locale}/${file} ${id}: ${parsed.ok ? "" : parsed.description}`).toBe(true);
      }
    });
  }

  it("every error code and every menu command has its text", () => {
    for (const { key } of Object.values(ERROR_TEXTS)) expect(reference.has(key), key).toBe(true);
    expect(reference.has("error-unknown")).toBe(true);
    for (const { command } of BOT_COMMANDS) expect(reference.has(`${command}.description`), command).toBe(true);
  });

  it("English names every API status exactly as the API spells it (fulfilled, confirmed, failed, expired …)", () => {
    const i18n = createI18n({
      defaultLocale: "en",
      directory: LOCALES_DIRECTORY,
      storedLocale: () => Promise.resolve(undefined),
      logger: createLogger({ level: "silent" }),
    });
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

/** The pattern's literal text with placeables as plain words. */
function flatten(pattern: Pattern): string {
  return pattern.elements.map((element) => (element instanceof TextElement ? element.value : "x")).join("");
}
