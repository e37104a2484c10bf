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
 * subject: picking from it costs nothing per case. A quarter of them contain
 * "to" (as header words like "to_address" do), which a header sniffer must
 * not mistake for a column name when the address is mistyped.
 */
export const ADDRESS_POOL: readonly string[] = (() => {
  const plain: string[] = [];
  const withTo: string[] = [];
  for (let i = 0; plain.length < 48 || withTo.length < 16; i += 1) {
    const a = base58check(Buffer.from(`41${createHash("sha256").update(`pool ${i}`).digest("hex").slice(0, 40)}`, "hex"));
    if (/to/i.test(a)) {
      if (withTo.length < 16) withTo.push(a);
    } else if (plain.length < 48) plain.push(a);
  }
  return [...plain, ...withTo];
})();
export const pooledAddressArb = fc.constantFrom(...ADDRESS_POOL);
