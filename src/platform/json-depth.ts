/**
 * Nesting limits for JSON read from strangers (webhook bodies, signed
 * transactions). Checked on the text, before anything parses it: one pass,
 * no recursion, so 100,000 opening brackets cost a loop and not a stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when some array or object in `text` sits deeper than `maxDepth`
 * (a top-level `{}` is depth 1). Brackets inside strings do not count. The
 * text need not be valid JSON; validity is the parser's business.
 */
export function jsonTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
