import { describe, expect, it } from "vitest";
import { signatureHeader } from "../../../testkit/simulator/index.js";
import { computeSignature, formatSignatureHeader, parseSignatureHeader, verifySignature } from "../../../src/platform/http/signature.js";

const secret = "whsec_test";
const body = Buffer.from('{"event":"order.created","orderId":"0123456789abcdef01234567"}');
const now = 1_800_000_000_000;
const t = now / 1000;

describe("webhook signatures", () => {
  it("accepts the simulator's header for the exact raw body", () => {
    expect(verifySignature({ secret, header: signatureHeader(secret, t, body.toString()), rawBody: body, nowMs: now })).toEqual({
      ok: true,
      timestamp: t,
      signature: computeSignature(secret, t, body),
    });
  });

  it("refuses a body changed by one byte", () => {
    const header = signatureHeader(secret, t, body.toString());
    const changed = Buffer.from(body.toString().replace("created", "createe"));
    expect(verifySignature({ secret, header, rawBody: changed, nowMs: now })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("allows 300 s of clock difference both ways and no more", () => {
    const at = (ts: number) => verifySignature({ secret, header: formatSignatureHeader(ts, [computeSignature(secret, ts, body)]), rawBody: body, nowMs: now });
    expect(at(t - 300).ok).toBe(true);
    expect(at(t + 300).ok).toBe(true);
    expect(at(t - 301)).toEqual({ ok: false, reason: "stale" });
    expect(at(t + 301)).toEqual({ ok: false, reason: "future" });
  });

  it("accepts any of several v1 values and ignores unknown schemes", () => {
    const header = `t=${t},v0=zzz,v1=${"0".repeat(64)},v1=${computeSignature(secret, t, body)}`;
    expect(verifySignature({ secret, header, rawBody: body, nowMs: now }).ok).toBe(true);
  });

  it.each([
    ["", "missing"],
    ["v1=abc", "malformed"],
    [`t=${t}`, "malformed"],
    [`t=abc,v1=${"a".repeat(64)}`, "malformed"],
    [`t=${t},t=${t},v1=${"a".repeat(64)}`, "malformed"],
    [`t=${t},v1=${"a".repeat(63)}`, "malformed"],
  ])("refuses the header %j as %s", (header, reason) => {
    expect(verifySignature({ secret, header, rawBody: body, nowMs: now })).toEqual({ ok: false, reason });
  });

  it("parses order-independent parts", () => {
    expect(parseSignatureHeader(`v1=${"A".repeat(64)}, t=12`)).toEqual({ timestamp: 12, signatures: ["a".repeat(64)] });
  });
});
