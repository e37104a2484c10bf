import { defaultDeserialize, defaultSerialize } from "@keyv/serialize";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import { safeDeserialize, safeSerialize } from "../../../src/platform/store/safe-serialize.js";
import { captureLogger } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "safe-serialize-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`);

describe("store serialization", () => {
  it("writes exactly what keyv's own serializer wrote, so rows from before read alike", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, s) => {
        const data = { value: { value, colon: `:${s}`, base64: `:base64:${s}` }, expires: 5 };
        const text = safeSerialize(data);
        expect(text).toBe(defaultSerialize(data));
        expect(safeDeserialize(text)).toEqual(defaultDeserialize(text));
      }),
      { numRuns: 2_000, seed: 11 },
    );
    const withBuffer = { value: { b: Buffer.from("hi") }, expires: undefined };
    expect(safeSerialize(withBuffer)).toBe(defaultSerialize(withBuffer));
    expect(safeDeserialize<{ value: { b: Buffer } }>(safeSerialize(withBuffer)).value.b.equals(Buffer.from("hi"))).toBe(true);
  });

  it("stores and reads back stray toJSON and __proto__ keys and deep nesting; refuses (never half-writes) what nests too deep", async () => {
    const backend = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger: captureLogger().logger });
    const kv = backend.namespace("x");
    const hostile = JSON.parse(
      '{"toJSON":1,"a":{"toJSON":"x","__proto__":{"polluted":true}},"deep":' + `${"[".repeat(1_500)}1${"]".repeat(1_500)}` + "}",
    ) as Record<string, unknown>;
    await kv.set("k", hostile);
    const back = await kv.get<Record<string, unknown>>("k");
    expect(back?.["toJSON"]).toBe(1);
    const a = back?.["a"] as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(a, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(JSON.stringify(back?.["deep"])).toBe(JSON.stringify(nested(1_500)));
    await expect(kv.set("k", { deep: nested(4_000) })).rejects.toThrow(RangeError);
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    await expect(kv.set("k", cyclic)).rejects.toThrow(RangeError);
    expect((await kv.get<Record<string, unknown>>("k"))?.["toJSON"]).toBe(1);
    await backend.close();
  });
});
