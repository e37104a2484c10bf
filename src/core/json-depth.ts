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
      if (c === 0x5c) i += 1; // backslash: the next character is escaped
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

/** The same limit for a value already parsed (walked with a stack of its own, not recursion). */
export function valueTooDeep(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
