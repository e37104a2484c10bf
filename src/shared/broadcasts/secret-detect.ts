import { tronweb } from "../tron/tronweb.js";

/**
 * Recognizes messages that look like wallet secrets so the bot can delete
 * them: it never asks for a private key and must not keep one in chat
 * history. Deliberately conservative: a signed transaction is JSON and never
 * matches, while a bare 64-hex string is treated as a key even though it
 * could be a txID, because guessing wrong the other way leaks a wallet. The
 * chat's own transaction ids never get here: the own-id guard
 * (src/shared/orders/own-ids.ts) answers them first; nor does a lone 64-hex
 * argument of `/track`, where the bot asks for an id (the bot's callers skip it).
 */

export type SecretKind = "private_key" | "mnemonic";

const PRIVATE_KEY = /^(?:0x)?[0-9a-fA-F]{64}$/;
/** Mnemonic lengths of BIP39 (128 to 256 bits of entropy). */
const MNEMONIC_LENGTHS: ReadonlySet<number> = new Set([12, 15, 18, 21, 24]);
const WORD = /^[a-z]{3,8}$/;
/** Share of words that must be in the English BIP39 list (tolerates a few typos). */
const WORDLIST_SHARE = 0.75;

function inWordlist(word: string): boolean {
  try {
    return tronweb().utils.ethersUtils.wordlists["en"]!.getWordIndex(word) >= 0;
  } catch {
    return false;
  }
}

/** What kind of secret `text` looks like, or `null`. */
export function detectSecret(text: string): SecretKind | null {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return null;
  const tokens = trimmed.split(/[\s,;]+/).filter(Boolean);
  // A key alone, or a key next to a few words ("my key is …").
  if (tokens.length <= 6 && tokens.some((t) => PRIVATE_KEY.test(t.replace(/^["'`]+|["'`.]+$/g, "")))) {
    return "private_key";
  }
  const words = tokens.map((t) => t.replace(/^\d+[.)]/, "").toLowerCase()).filter(Boolean);
  if (MNEMONIC_LENGTHS.has(words.length) && words.every((w) => WORD.test(w))) {
    const known = words.filter(inWordlist).length;
    if (known / words.length >= WORDLIST_SHARE) return "mnemonic";
  }
  return null;
}
