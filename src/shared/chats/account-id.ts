import type { Vault } from "../vault.js";

/**
 * Which service account a chat is linked to. The service exposes no account
 * id; GET /v1/balance returns the account's deposit address, which is stable
 * once issued and the same for every key of the account, so it is the id when
 * there is one (`addr:<address>`). An account with no wallet yet has none:
 * its key stands for it (`key:<fingerprint>`, an HMAC under the vault key,
 * never the key). The key fingerprint is also kept as an alias: a chat that
 * was known by its key (no wallet then, or linked before accounts were told
 * apart) keeps its history when the same key comes back with an address.
 */
export interface ChatAccount {
  id: string;
  /** Other ids the same account may have been stored under in this chat. */
  aliases: string[];
}

export function keyAccountId(vault: Pick<Vault, "fingerprint">, apiKey: string): string {
  return `key:${vault.fingerprint(apiKey, "account-key")}`;
}

export function accountIdOf(vault: Pick<Vault, "fingerprint">, apiKey: string, depositAddress: string | null | undefined): string {
  return depositAddress ? `addr:${depositAddress}` : keyAccountId(vault, apiKey);
}
