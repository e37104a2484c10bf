/**
 * Typed callback data: `prefix:value1:value2`, at most 64 bytes (Telegram's
 * limit, checked when packing so an oversized button fails in tests, not in
 * production). Values may not contain ":".
 */
export interface CallbackData<F extends string> {
  readonly prefix: string;
  pack(values: Record<F, string | number>): string;
  /** Undefined for data of another family or the wrong shape. */
  unpack(data: string | undefined): Record<F, string> | undefined;
  /** For `bot.callbackQuery(x.filter, …)`. */
  readonly filter: RegExp;
}

export const MAX_CALLBACK_DATA_BYTES = 64;

export function createCallbackData<const F extends string>(prefix: string, fields: readonly F[]): CallbackData<F> {
  if (!/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`invalid callback prefix ${prefix}`);
  const escaped = prefix.replace(/-/g, "\\-");
  return {
    prefix,
    filter: new RegExp(`^${escaped}(?::|$)`),
    pack(values) {
      const parts = fields.map((f) => {
        const v = String(values[f]);
        if (v.includes(":")) throw new Error(`callback value for ${f} contains ":"`);
        return v;
      });
      const data = [prefix, ...parts].join(":");
      if (Buffer.byteLength(data) > MAX_CALLBACK_DATA_BYTES) throw new Error(`callback data over 64 bytes: ${prefix}`);
      return data;
    },
    unpack(data) {
      if (data === undefined) return undefined;
      const [head, ...parts] = data.split(":");
      if (head !== prefix || parts.length !== fields.length) return undefined;
      return Object.fromEntries(fields.map((f, i) => [f, parts[i]!])) as Record<F, string>;
    },
  };
}
