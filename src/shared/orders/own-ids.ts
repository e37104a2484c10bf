import type { OrderHistory } from "./order-history.js";

/**
 * The bot's own ids pasted back into the chat: the cards show order and
 * broadcast ids (24 hex) and transaction ids (64 hex) tap-to-copy, so users
 * copy them and paste them. A 64-hex transaction id looks exactly like a
 * private key; one this chat's history knows is not a secret, so it is
 * answered with "track this" instead of being deleted as a key.
 */

export interface OwnIdMatch {
  kind: "order" | "broadcast";
  /** The order or broadcast id (what /track takes). */
  id: string;
  /** The pasted transaction id, when that is what named the broadcast. */
  txId?: string;
}

const HEX_64 = /^(?:0x)?([0-9a-f]{64})$/i;
const HEX_24 = /^[0-9a-f]{24}$/i;
/** As many words as detectSecret looks at for a key ("my tx is …"). */
const MAX_TOKENS = 6;

const tokensOf = (text: string): string[] =>
  text
    .trim()
    .split(/[\s,;]+/)
    .map((t) => t.replace(/^["'`«(<]+|["'`».:!?)>]+$/g, ""))
    .filter(Boolean);

/**
 * The chat's own ids a short text names, or undefined when it names none,
 * or when it also carries a 64-hex value the history does not know (that
 * one may be a private key and is left to the secret guard).
 */
export async function findOwnIds(history: Pick<OrderHistory, "get" | "findBroadcastByTxId">, chatId: number, text: string): Promise<OwnIdMatch[] | undefined> {
  const tokens = tokensOf(text);
  if (tokens.length === 0 || tokens.length > MAX_TOKENS) return undefined;
  const found: OwnIdMatch[] = [];
  for (const token of tokens) {
    const hex64 = HEX_64.exec(token)?.[1];
    if (hex64 !== undefined) {
      const entry = await history.findBroadcastByTxId(chatId, hex64);
      if (!entry) return undefined;
      found.push({ kind: "broadcast", id: entry.id, txId: hex64.toLowerCase() });
      continue;
    }
    if (!HEX_24.test(token)) continue;
    const id = token.toLowerCase();
    const entry = (await history.get(chatId, "order", id)) ?? (await history.get(chatId, "broadcast", id));
    if (entry) found.push({ kind: entry.kind, id });
  }
  const unique = found.filter((m, i) => found.findIndex((o) => o.kind === m.kind && o.id === m.id) === i);
  return unique.length > 0 ? unique : undefined;
}
