/**
 * Keyv's (de)serializer, rewritten so that no stored value can break it.
 * `@keyv/serialize` calls any truthy `toJSON` it meets (`{"toJSON":1}` from a
 * stranger's JSON throws) and revives with a recursive JSON.parse reviver
 * (4,000 nested arrays overflow the stack on read, leaving a row nobody can
 * open). The stored text is the same: strings starting with ":" get one more
 * ":", Buffers become ":base64:<data>", so rows written before read alike.
 */
const BASE64 = ":base64:";

/** Deeper than this is refused on write (and a cycle ends up here too) instead of overflowing the stack. */
const MAX_WRITE_DEPTH = 2_000;

/**
 * A copy with keyv's string escapes applied, built with a stack of its own;
 * JSON.stringify then sees plain data (it calls only a toJSON that is a
 * function, and skips undefined and functions, as keyv's serializer did).
 */
function escapeForStore(data: unknown): unknown {
  const holder: Record<string, unknown> = { root: data };
  const stack: { parent: Record<string, unknown> | unknown[]; key: string | number; depth: number }[] = [{ parent: holder, key: "root", depth: 0 }];
  while (stack.length > 0) {
    const { parent, key, depth } = stack.pop()!;
    const value = (parent as Record<string | number, unknown>)[key];
    if (typeof value === "string") {
      if (value.startsWith(":")) put(parent, key, `:${value}`);
      continue;
    }
    if (Buffer.isBuffer(value)) {
      put(parent, key, `${BASE64}${value.toString("base64")}`);
      continue;
    }
    if (typeof value !== "object" || value === null || typeof (value as { toJSON?: unknown }).toJSON === "function") continue;
    if (depth >= MAX_WRITE_DEPTH) throw new RangeError("value nests too deep to store");
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...(value as unknown[])] : {};
    if (!Array.isArray(value)) for (const k of Object.keys(value)) put(copy, k, (value as Record<string, unknown>)[k]);
    put(parent, key, copy);
    const keys: (string | number)[] = Array.isArray(copy) ? copy.map((_, i) => i) : Object.keys(copy);
    for (const k of keys) stack.push({ parent: copy, key: k, depth: depth + 1 });
  }
  return holder["root"];
}

export function safeSerialize(data: unknown): string {
  return JSON.stringify(escapeForStore(data)) ?? "null";
}

function revive(value: string): unknown {
  if (value.startsWith(BASE64)) return Buffer.from(value.slice(BASE64.length), "base64");
  return value.startsWith(":") ? value.slice(1) : value;
}

/** Sets an own property even for `__proto__`, which plain assignment would turn into a prototype change. */
function put(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

// Keyv's `deserialize` option is generic in its result, so this one is too.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function safeDeserialize<T = unknown>(text: string): T {
  const root = JSON.parse(text) as unknown;
  if (typeof root === "string") return revive(root) as T;
  // Iterative walk: depth costs heap, not stack.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const container = node as Record<string, unknown> | unknown[];
    const keys: (string | number)[] = Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container);
    for (const key of keys) {
      const value = (container as Record<string | number, unknown>)[key];
      if (typeof value === "string") {
        const revived = revive(value);
        if (revived !== value) put(container, key, revived);
      } else if (typeof value === "object" && value !== null) {
        stack.push(value);
      }
    }
  }
  return root as T;
}
