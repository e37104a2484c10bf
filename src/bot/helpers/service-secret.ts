/**
 * Recognizes the service's own credentials pasted into a chat: API keys
 * (`sk_…`) and webhook secrets (`whsec_…`), as the dashboard issues them
 * (the simulator: `sk_sim_<32 hex>`, `whsec_<32 hex>`), and long random
 * tokens without a prefix. Conservative on purpose: a TRON address, a
 * 64-hex txID/private key (detectSecret's business), an order id or a
 * word with underscores never match.
 */

export type ServiceSecretKind = "api_key" | "webhook_secret" | "token";

const PREFIXED = /^(sk|whsec)[_-]([A-Za-z0-9_-]+)$/i;
const TOKEN = /^[A-Za-z0-9_-]{32,256}$/;
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const HEX_64 = /^(?:0x)?[0-9a-fA-F]{64}$/;
/** Bits per character random hex stays above (32 chars: 3.7 on average, about 1 in 10^5 under 3). */
const MIN_ENTROPY_BITS = 2.8;

/** Shannon entropy of the characters, in bits per character. */
export function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const longestRun = (value: string): string => (value.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");
const mixed = (value: string): boolean => /[A-Za-z]/.test(value) && /\d/.test(value);
/** base64url noise: both cases, several digits, high entropy (words joined by "_" have one or none). */
const base64Like = (value: string): boolean =>
  value.length >= 20 && /[a-z]/.test(value) && /[A-Z]/.test(value) && (value.match(/\d/g) ?? []).length >= 3 && entropyBits(value) >= 4;

/** What kind of service credential `text` carries, or undefined. */
export function findServiceSecret(text: string): ServiceSecretKind | undefined {
  return extractServiceSecret(text)?.kind;
}

/** The service credential `text` carries, with its kind, or undefined. */
export function extractServiceSecret(text: string): { kind: ServiceSecretKind; value: string } | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.startsWith("{") || trimmed.startsWith("[")) return undefined;
  const tokens = trimmed
    .split(/\s+/)
    .map((t) => t.replace(/^["'`«(<]+|["'`».,;:!?)>]+$/g, ""))
    .filter(Boolean);
  for (const token of tokens) {
    const m = PREFIXED.exec(token);
    if (!m) continue;
    const rest = m[2]!;
    const run = longestRun(rest);
    if ((run.length >= 16 && mixed(run) && entropyBits(run) >= MIN_ENTROPY_BITS) || base64Like(rest)) {
      return { kind: m[1]!.toLowerCase() === "whsec" ? "webhook_secret" : "api_key", value: token };
    }
  }
  // Without a prefix only a token that is (nearly) the whole message counts.
  if (tokens.length > 3) return undefined;
  for (const token of tokens) {
    if (!TOKEN.test(token) || TRON_ADDRESS.test(token) || HEX_64.test(token)) continue;
    if (mixed(token) && entropyBits(token) >= MIN_ENTROPY_BITS) return { kind: "token", value: token };
  }
  return undefined;
}
