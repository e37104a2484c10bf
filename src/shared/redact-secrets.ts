/**
 * Service `detail` texts are shown to users as they come, and a service may
 * echo what it was sent (an API key in a header, a secret in a field). This
 * blanks whatever looks like a key or secret and keeps the rest readable:
 * TRON addresses, 24-hex record ids and transaction ids (named as such) stay.
 */
export const REDACTED = "[redacted]";

/** `sk_live_…`, `whsec_…`, `key_…`: the prefixes services give their keys. */
const PREFIXED = /\b(?:sk|pk|rk|whsec|key|secret|token|api)_[A-Za-z0-9_-]{8,}/gi;
/** `api_key=…`, `secret: …`, `Bearer …`, `password "…"`: the value after a telling label. */
const LABELLED =
  /\b(api[ _-]?key|secret|token|password|passwd|authorization|bearer|signature|private[ _-]?key|mnemonic|seed)(["']?\s*[:=]\s*["']?|\s+["']?)([^\s"',;]{6,})/gi;
/** 64 hex digits: a private key unless a txID label stands shortly before it, in the same clause. */
const HEX64 = /\b(?:0x)?[0-9a-fA-F]{64}\b/g;
const TX_LABEL = /tx_?id|transaction|hash/i;
/** Long opaque runs of letters and digits: tokens, keys, JWT parts. */
const OPAQUE = /[A-Za-z0-9+/_=.-]{32,}/g;
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

function clauseBefore(text: string, offset: number): string {
  return (
    text
      .slice(0, offset)
      .split(/[.;\n]/)
      .at(-1) ?? ""
  );
}

export function redactSecrets(text: string): string {
  return text
    .replace(LABELLED, (_m, label: string, sep: string) => `${label}${sep}${REDACTED}`)
    .replace(PREFIXED, REDACTED)
    .replace(HEX64, (match: string, offset: number, whole: string) => (TX_LABEL.test(clauseBefore(whole, offset)) ? match : REDACTED))
    .replace(OPAQUE, (match: string) => {
      if (TRON_ADDRESS.test(match) || /^(?:0x)?[0-9a-fA-F]{64}$/.test(match)) return match;
      return /[A-Za-z]/.test(match) && /[0-9]/.test(match) ? REDACTED : match;
    });
}
