import { tronweb } from "./tronweb.js";

/**
 * Address helpers over tronweb's static utils. All of them are total:
 * garbage in gives `false`/`null`, never an exception, because addresses
 * arrive from chat messages and from untrusted transaction JSON.
 */

const HEX_ADDRESS = /^(?:41|0x)[0-9a-fA-F]{40}$/;

/** Base58check, 34 characters, prefix 0x41, double-sha256 checksum verified. */
export function isValidTronAddress(s: string): boolean {
  if (typeof s !== "string" || s.length !== 34) return false;
  try {
    return tronweb().utils.crypto.isAddressValid(s);
  } catch {
    return false;
  }
}

/**
 * Base58 (checksum verified) or hex (`41…`/`0x…`, 20 bytes) → lower-case `41…` hex.
 * `null` when the input is neither.
 */
export function toHexAddress(address: string): string | null {
  if (typeof address !== "string") return null;
  if (HEX_ADDRESS.test(address)) return `41${address.slice(2).toLowerCase()}`;
  if (!isValidTronAddress(address)) return null;
  try {
    return tronweb().TronWeb.address.toHex(address).toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Hex (`41…` or `0x…`, any case) or an already valid base58 address → base58.
 * `null` for anything else.
 */
export function fromHexAddress(address: string): string | null {
  if (typeof address !== "string") return null;
  if (isValidTronAddress(address)) return address;
  if (!HEX_ADDRESS.test(address)) return null;
  try {
    const b58 = tronweb().TronWeb.address.fromHex(`41${address.slice(2).toLowerCase()}`);
    return isValidTronAddress(b58) ? b58 : null;
  } catch {
    return null;
  }
}
