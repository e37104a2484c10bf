import { describe, expect, it } from "vitest";
import { jsonErrorAt, looksLikeSignedTransaction, precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";

describe("invalid JSON", () => {
  it("is located by line and character, never described by the parser's English message", () => {
    expect(jsonErrorAt('{"a": 1}')).toBeUndefined();
    expect(jsonErrorAt("abc")).toEqual({ line: 1, column: 1, end: false });
    expect(jsonErrorAt('{"a": x}')).toEqual({ line: 1, column: 7, end: false });
    expect(jsonErrorAt('{"txID": "ab",\n  "raw_data": {,}}')).toEqual({ line: 2, column: 16, end: false });
    expect(jsonErrorAt('{"a": [1,\r\n2')).toEqual({ line: 2, column: 2, end: true });
    const refused = precheckBroadcast({ input: '{"a":\n oops}', nowMs: 0, baseUnitPriceSun: 60 });
    expect(refused).toEqual({ ok: false, reason: "not_json", at: { line: 2, column: 2, end: false } });
    expect(precheckBroadcast({ input: '{"a": [', nowMs: 0, baseUnitPriceSun: 60 })).toEqual({
      ok: false,
      reason: "not_json",
      at: { line: 1, column: 8, end: true },
    });
  });

  it("tells a pasted signed transaction from other JSON", () => {
    expect(looksLikeSignedTransaction('{"txID": "ab", "raw_data": {}}')).toBe(true);
    expect(looksLikeSignedTransaction(' {"signedTx": {"raw_data": {}}}')).toBe(true);
    expect(looksLikeSignedTransaction('{"hello": "world"}')).toBe(false);
    expect(looksLikeSignedTransaction('{"txID": ')).toBe(false);
    expect(looksLikeSignedTransaction("[1, 2]")).toBe(false);
    expect(looksLikeSignedTransaction("hello")).toBe(false);
  });
});
