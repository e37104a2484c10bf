/** Commands whose argument is a transaction id when it is 64 hex characters (`/track <txId>`). */
const TX_ID_COMMANDS: ReadonlySet<string> = new Set(["track"]);
const COMMAND = /^\/([A-Za-z0-9_]+)(?:@\S+)?\s+(\S+)\s*$/;
const TX_ID = /^(?:0x)?([0-9a-fA-F]{64})$/;

/**
 * The transaction id a command names where it asks for one (`/track <txId>`,
 * a lone 64-hex argument, with or without `0x`), in lower case; undefined
 * for any other text. A 64-hex value looks exactly like a private key; there
 * the user was asked for an id, so the secret checks leave it alone.
 */
export function txIdCommandArgument(text: string): string | undefined {
  const m = COMMAND.exec(text.trim());
  if (!m || !TX_ID_COMMANDS.has(m[1]!.toLowerCase())) return undefined;
  return TX_ID.exec(m[2]!)?.[1]!.toLowerCase();
}
