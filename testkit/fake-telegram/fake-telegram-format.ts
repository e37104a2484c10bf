/**
 * Telegram's formatting and markup rules, as strictly as the real Bot API
 * applies them. Each check returns the plain text a user would see, or the
 * error description Telegram answers with (always a 400).
 */

export type Parsed = { ok: true; plain: string } | { ok: false; description: string };

const HTML_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji"]);
const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

const cantParse = (why: string): Parsed => ({ ok: false, description: `Bad Request: can't parse entities: ${why}` });

/** Where plain text ends, and an entity read in place (sticky: no copy of the rest of the text per entity). */
const SPECIAL = /[&<>]/g;
const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/y;

/** Telegram's HTML parse mode: known tags only, balanced, `&` only as an entity. */
export function parseHtml(text: string): Parsed {
  const stack: string[] = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    // A run of plain text at once; then the character that ends it.
    SPECIAL.lastIndex = i;
    const special = SPECIAL.exec(text);
    const stop = special ? special.index : text.length;
    if (stop > i) {
      plain += text.slice(i, stop);
      i = stop;
      if (i === text.length) break;
    }
    const ch = text[i]!;
    if (ch === "&") {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(text);
      if (!m) return cantParse(`Character entity expected at byte offset ${i}`);
      const name = m[1]!;
      if (name.startsWith("#x")) plain += String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      else if (name.startsWith("#")) plain += String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      else if (NAMED_ENTITIES[name] !== undefined) plain += NAMED_ENTITIES[name];
      else return cantParse(`Unsupported character entity "${name}" at byte offset ${i}`);
      i += m[0].length;
      continue;
    }
    if (ch === "<") {
      const end = text.indexOf(">", i);
      if (end < 0) return cantParse(`Can't find end of the tag starting at byte offset ${i}`);
      const inner = text.slice(i + 1, end);
      if (inner.startsWith("/")) {
        const name = inner.slice(1).trim().toLowerCase();
        const open = stack.pop();
        if (open === undefined) return cantParse(`Unexpected end tag at byte offset ${i}`);
        if (name !== "" && name !== open) {
          return cantParse(`Unmatched end tag at byte offset ${i}, expected "</${open}>", found "</${name}>"`);
        }
      } else {
        const m = /^([a-zA-Z-]+)(\s[^]*)?$/.exec(inner);
        const name = m?.[1]?.toLowerCase();
        if (!name || !HTML_TAGS.has(name)) return cantParse(`Unsupported start tag "${inner.split(/\s/)[0]}" at byte offset ${i}`);
        if (name === "a" && !/href\s*=\s*"[^"]+"|href\s*=\s*'[^']+'/.test(m?.[2] ?? "")) {
          return cantParse(`Can't find href attribute of the tag "a" at byte offset ${i}`);
        }
        stack.push(name);
      }
      i = end + 1;
      continue;
    }
    // Telegram tolerates a bare ">" but we refuse it so escaping bugs show up early.
    return cantParse(`Unexpected ">" at byte offset ${i}; escape it as &gt;`);
  }
  if (stack.length > 0) return cantParse(`Can't find end tag corresponding to start tag "${stack[stack.length - 1]}"`);
  return { ok: true, plain };
}

const MD_RESERVED = new Set("_*[]()~`>#+-=|{}.!".split(""));

/** MarkdownV2: every reserved character outside an entity must be escaped. */
export function parseMarkdownV2(text: string): Parsed {
  let plain = "";
  const open: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) return cantParse(`Can't find end of the entity starting at byte offset ${i}`);
      plain += next;
      i += 2;
      continue;
    }
    if (ch === "`") {
      const fence = text.startsWith("```", i) ? "```" : "`";
      const end = text.indexOf(fence, i + fence.length);
      if (end < 0) return cantParse(`Can't find end of ${fence === "`" ? "Code" : "Pre"} entity at byte offset ${i}`);
      plain += text.slice(i + fence.length, end).replace(/\\([`\\])/g, "$1");
      i = end + fence.length;
      continue;
    }
    if (ch === "[") {
      const m = /^\[((?:\\.|[^\]\\])*)\]\(((?:\\.|[^)\\])+)\)/.exec(text.slice(i));
      if (!m) return cantParse(`Character '[' is reserved and must be escaped with the preceding '\\'`);
      const inner = parseMarkdownV2(m[1]!);
      if (!inner.ok) return inner;
      plain += inner.plain;
      i += m[0].length;
      continue;
    }
    const marker = text.startsWith("__", i) ? "__" : text.startsWith("||", i) ? "||" : ch;
    if (marker === "__" || marker === "||" || ch === "*" || ch === "_" || ch === "~") {
      if (open[open.length - 1] === marker) open.pop();
      else open.push(marker);
      i += marker.length;
      continue;
    }
    if (MD_RESERVED.has(ch)) {
      return cantParse(`Character '${ch}' is reserved and must be escaped with the preceding '\\'`);
    }
    plain += ch;
    i += 1;
  }
  if (open.length > 0) return cantParse(`Can't find end of the entity starting with "${open[open.length - 1]}"`);
  return { ok: true, plain };
}

/** Applies the message's parse mode; an unknown parse mode is itself an error. */
export function parseText(text: string, parseMode: unknown): Parsed {
  if (parseMode === undefined || parseMode === null || parseMode === "") return { ok: true, plain: text };
  if (parseMode === "HTML") return parseHtml(text);
  if (parseMode === "MarkdownV2") return parseMarkdownV2(text);
  if (parseMode === "Markdown") return { ok: true, plain: text.replace(/[*_`[\]]/g, "") };
  return { ok: false, description: "Bad Request: unsupported parse_mode" };
}

export interface Button {
  text: string;
  callback_data?: string;
  url?: string;
  switch_inline_query?: string;
  switch_inline_query_current_chat?: string;
  copy_text?: { text: string };
}

const BUTTON_KINDS = [
  "callback_data",
  "url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "web_app",
  "login_url",
  "pay",
  "callback_game",
] as const;

/** A URL button's link as Telegram takes it: an absolute http(s) URL with a host, or a tg:// link; no spaces. */
function isButtonUrl(value: unknown): boolean {
  if (typeof value !== "string" || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    if (url.protocol === "tg:") return true;
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A Mini App's address as Telegram takes it, for web_app buttons and the menu button: https only. */
export function isWebAppUrl(value: unknown): boolean {
  if (typeof value !== "string" || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Validates `reply_markup` (object or JSON string). Returns the inline rows, or the error. */
export function parseMarkup(raw: unknown): { ok: true; rows: Button[][]; markup: unknown } | { ok: false; description: string } {
  if (raw === undefined || raw === null || raw === "") return { ok: true, rows: [], markup: undefined };
  let markup: unknown = raw;
  if (typeof raw === "string") {
    try {
      markup = JSON.parse(raw);
    } catch {
      return { ok: false, description: "Bad Request: can't parse reply keyboard markup JSON object" };
    }
  }
  if (typeof markup !== "object" || markup === null) {
    return { ok: false, description: "Bad Request: can't parse reply keyboard markup JSON object" };
  }
  const m = markup as Record<string, unknown>;
  if (!("inline_keyboard" in m)) return { ok: true, rows: [], markup };
  if (!Array.isArray(m["inline_keyboard"])) return { ok: false, description: 'Bad Request: field "inline_keyboard" must be an Array' };
  const rows: Button[][] = [];
  for (const row of m["inline_keyboard"] as unknown[]) {
    if (!Array.isArray(row)) return { ok: false, description: 'Bad Request: field "inline_keyboard" must be an Array of Arrays' };
    const out: Button[] = [];
    for (const b of row as Record<string, unknown>[]) {
      if (typeof b?.["text"] !== "string" || b["text"].length === 0)
        return { ok: false, description: "Bad Request: text buttons are unallowed in the inline keyboard" };
      const kinds = BUTTON_KINDS.filter((k) => b[k] !== undefined);
      if (kinds.length !== 1) return { ok: false, description: "Bad Request: inline keyboard button must have exactly one optional field" };
      if (kinds[0] === "callback_data") {
        const bytes = typeof b["callback_data"] === "string" ? Buffer.byteLength(b["callback_data"]) : 0;
        if (bytes < 1 || bytes > 64) return { ok: false, description: "Bad Request: BUTTON_DATA_INVALID" };
      }
      if (kinds[0] === "url" && !isButtonUrl(b["url"])) return { ok: false, description: "Bad Request: BUTTON_URL_INVALID" };
      if (kinds[0] === "web_app" && !isWebAppUrl((b["web_app"] as { url?: unknown } | undefined)?.url))
        return { ok: false, description: "Bad Request: Only HTTPS links are allowed" };
      out.push(b as unknown as Button);
    }
    rows.push(out);
  }
  if (rows.length > 100) return { ok: false, description: "Bad Request: too many inline keyboard rows" };
  if (rows.flat().length > 100) return { ok: false, description: "Bad Request: too many inline keyboard buttons" };
  return { ok: true, rows, markup };
}

/** Stable comparison key of a markup, for "message is not modified". */
export function markupKey(markup: unknown): string {
  return JSON.stringify(markup ?? null);
}
