/**
 * Keyv's (de)serializer, rewritten so that no stored value can break it.
 * `@keyv/serialize` calls any truthy `toJSON` it meets (`{"toJSON":1}` from a
 * stranger's JSON throws) and revives with a recursive JSON.parse reviver
 * (4,000 nested arrays overflow the stack on read, leaving a row nobody can
 * open). The stored text is the same: strings starting with ":" get one more
 * ":", Buffers become ":base64:<data>", so rows written before read alike.
 */
const BASE64 = ":base64:";

export function safeSerialize(data: unknown): string {
  // JSON.stringify only calls a toJSON that is a function, and skips what keyv skips.
  return JSON.stringify(data, function replacer(this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key];
    if (Buffer.isBuffer(raw)) return `${BASE64}${raw.toString("base64")}`;
    return typeof value === "string" && value.startsWith(":") ? `:${value}` : value;
  }) ?? "null";
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
