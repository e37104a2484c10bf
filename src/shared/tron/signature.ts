import type { SignatureProblem } from "./refusal.js";
import { tronweb } from "./tronweb.js";

/**
 * Signature recovery as java-tron does it (TransactionCapsule
 * .getBase64FromByteString, ECKey.signatureToKeyBytes and
 * recoverPubBytesFromSignature), not as ethers does it: java-tron accepts any
 * 1 <= s < n, where ethers throws on a high s. TronWeb before 5.3 signed with
 * a high s about half the time, so those transactions are on chain.
 */

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
export const SIGNATURE_BYTES = 65;

export type Recovery = { ok: true; address: string; highS: boolean } | { ok: false; problem: SignatureProblem };

function hex32(v: bigint): string {
  return `0x${v.toString(16).padStart(64, "0")}`;
}

/**
 * The `41…` hex address that signed `txId`, or why java-tron refuses the signature.
 * The signature is read, never rewritten: normalising s happens on a copy
 * used only for recovery.
 */
export function recoverSigner(txId: string, signatureHex: string): Recovery {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(signatureHex)) return { ok: false, problem: { code: "not_hex" } };
  const sig = Buffer.from(signatureHex, "hex");
  if (sig.length < SIGNATURE_BYTES) return { ok: false, problem: { code: "size", bytes: sig.length, expected: SIGNATURE_BYTES } };
  // java-tron reads bytes 0..64 and ignores any tail; wallets never send one,
  // and a longer signature is refused here so nothing unread is passed on.
  if (sig.length > SIGNATURE_BYTES) return { ok: false, problem: { code: "size", bytes: sig.length, expected: SIGNATURE_BYTES } };
  // Java bytes are signed: 0x80..0xff are negative, so v < 27 for them too.
  let v = sig[64]! > 127 ? sig[64]! - 256 : sig[64]!;
  if (v < 27) v += 27;
  const header = v & 0xff;
  if (header < 27 || header > 34) return { ok: false, problem: { code: "header_out_of_range", header } };
  let recId = header - 27;
  if (header >= 31) recId -= 4;
  const r = BigInt(`0x${sig.subarray(0, 32).toString("hex")}`);
  let s = BigInt(`0x${sig.subarray(32, 64).toString("hex")}`);
  if (r === 0n || r >= N) return { ok: false, problem: { code: "value_out_of_range", part: "r" } };
  if (s === 0n || s >= N) return { ok: false, problem: { code: "value_out_of_range", part: "s" } };
  if (recId >= 2) {
    // x = r + n must stay below the field prime; for a real signature r is
    // 256 bits and this never holds. (A crafted r below p - n would recover in
    // java-tron; it is refused here, which only errs on the safe side.)
    return { ok: false, problem: { code: r + N >= P ? "unrecoverable" : "recovery_id_unsupported" } };
  }
  const highS = s > HALF_N;
  if (highS) {
    // (r, s) and (r, n - s) with the other parity recover the same key.
    s = N - s;
    recId ^= 1;
  }
  try {
    const { Signature, recoverAddress } = tronweb().utils.ethersUtils;
    const recovered = recoverAddress(`0x${txId}`, Signature.from({ r: hex32(r), s: hex32(s), v: 27 + recId }));
    return { ok: true, address: `41${recovered.slice(2).toLowerCase()}`, highS };
  } catch {
    return { ok: false, problem: { code: "unrecoverable" } };
  }
}
