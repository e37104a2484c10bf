import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Service webhook signatures: `<Prefix>-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`
 * where each v1 is HMAC-SHA256(secret, "<t>.<raw body>") in hex. Several v1
 * values are accepted so the service can sign with an old and a new secret
 * during a rotation.
 */
export const SIGNATURE_TOLERANCE_SEC = 300;

export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

export type SignatureCheck =
  /** `signature`: the matching value (hex), a hash of what it signs: the same for a replay of the same delivery. */
  { ok: true; timestamp: number; signature: string } | { ok: false; reason: "missing" | "malformed" | "stale" | "future" | "mismatch" };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** Parses the header value; null when it has no usable `t` or no `v1`. Unknown schemes are ignored. */
export function parseSignatureHeader(value: string): ParsedSignature | null {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(val) || timestamp !== undefined) return null;
      timestamp = Number(val);
    } else if (key === "v1" && HEX_SHA256.test(val)) {
      signatures.push(val.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0 || signatures.length > 8) return null;
  return { timestamp, signatures };
}

/** HMAC-SHA256(secret, "<t>.<raw body>") as lower-case hex. */
export function computeSignature(secret: string, timestamp: number, rawBody: Uint8Array | string): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** Builds a header value, for tests and tools. */
export function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(",");
}

export interface VerifyInput {
  secret: string;
  header: string | undefined | null;
  rawBody: Uint8Array;
  /** Current time in ms; injectable for tests. */
  nowMs?: number;
  toleranceSec?: number;
}

export type HeaderCheck = { ok: true; parsed: ParsedSignature } | { ok: false; reason: "missing" | "malformed" | "stale" | "future" };

/**
 * What can be refused without the body: a missing, malformed, stale or future
 * header. The route checks this before reading the body, so a flood of junk
 * headers costs no body read and no HMAC.
 */
export function checkSignatureHeader(header: string | undefined | null, nowMs: number, toleranceSec = SIGNATURE_TOLERANCE_SEC): HeaderCheck {
  if (!header) return { ok: false, reason: "missing" };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: "malformed" };
  const nowSec = Math.floor(nowMs / 1000);
  if (parsed.timestamp < nowSec - toleranceSec) return { ok: false, reason: "stale" };
  if (parsed.timestamp > nowSec + toleranceSec) return { ok: false, reason: "future" };
  return { ok: true, parsed };
}

/** The HMAC part of the check, on a header `checkSignatureHeader` accepted. */
export function matchSignature(secret: string, parsed: ParsedSignature, rawBody: Uint8Array): SignatureCheck {
  const expectedHex = computeSignature(secret, parsed.timestamp, rawBody);
  const expected = Buffer.from(expectedHex, "hex");
  // Every candidate is compared (no early exit) so timing does not reveal which one matched.
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (timingSafeEqual(expected, Buffer.from(candidate, "hex"))) matched = true;
  }
  return matched ? { ok: true, timestamp: parsed.timestamp, signature: expectedHex } : { ok: false, reason: "mismatch" };
}

/** Constant-time check of a webhook signature with a 300 s tolerance both ways. */
export function verifySignature(input: VerifyInput): SignatureCheck {
  const header = checkSignatureHeader(input.header, input.nowMs ?? Date.now(), input.toleranceSec ?? SIGNATURE_TOLERANCE_SEC);
  if (!header.ok) return header;
  return matchSignature(input.secret, header.parsed, input.rawBody);
}
