/**
 * Base58check written out independently of tronweb, so address properties do
 * not check the library against itself: 0x41 + 20 bytes + the first 4 bytes
 * of sha256(sha256(payload)), in the Bitcoin alphabet.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";

export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

const sha256 = (b: Buffer): Buffer => createHash("sha256").update(b).digest();

export function base58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE58_ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Base58check of any payload (prefix byte included), with a correct checksum. */
export function base58check(payload: Buffer): string {
  return base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

/** 20 address bytes as lower-case hex. */
export const addressBodyArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString("hex"));

/** A valid TRON address: its base58 form and its `41…` hex form. */
export const tronAddressArb = addressBodyArb.map((body) => ({ hex: `41${body}`, base58: base58check(Buffer.from(`41${body}`, "hex")) }));

/**
 * A fixed pool of valid addresses (derived from a counter, so the same on
 * every run), for properties where the address is context rather than the
 * subject: picking from it costs nothing per case.
 */
export const ADDRESS_POOL: readonly string[] = Array.from({ length: 64 }, (_, i) =>
  base58check(Buffer.from(`41${createHash("sha256").update(`pool ${i}`).digest("hex").slice(0, 40)}`, "hex")),
);
export const pooledAddressArb = fc.constantFrom(...ADDRESS_POOL);
