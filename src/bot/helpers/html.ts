/**
 * The bot sends every message with parse_mode HTML. Translations carry the
 * markup; every dynamic value goes through `escapeHtml` exactly once, which
 * `translate` does for all string variables unless they are `Html` (markup the
 * bot built itself from escaped parts).
 */
import type { I18nFlavor } from "../i18n.js";

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Markup that is already safe (built from translations and escaped values). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const html = (value: string) => new Html(value);

/** `<code>` copies with one tap in Telegram clients. */
export const code = (value: string) => new Html(`<code>${escapeHtml(value)}</code>`);

export type TextVars = Record<string, string | number | Html>;

/** `ctx.t` with every string variable escaped for parse_mode HTML. */
export function translate(ctx: Pick<I18nFlavor, "t">, key: string, vars: TextVars = {}): string {
  const safe: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(vars)) {
    safe[name] = value instanceof Html ? value.value : typeof value === "string" ? escapeHtml(value) : value;
  }
  return ctx.t(key, safe);
}

/** Reply options every text message uses. */
export const HTML = { parse_mode: "HTML", link_preview_options: { is_disabled: true } } as const;
