import type { Logger } from "pino";
import { sealedKeyId, VAULT_ERROR_REASONS, type Vault } from "../vault.js";
import { SEALED_FIELDS, VAULT_FIELD, type ChatRepository } from "./chat-repository.js";

/** What the stored secrets look like to this process's keys. */
export interface SealedAudit {
  /** Chats with at least one value that opens under no configured key: they read as not connected. */
  unreadableChats: number;
  unreadableValues: number;
  /** Key ids (safe to log) named by unreadable values and held by neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS. */
  missingKeyIds: string[];
  /** Unreadable values that name a configured key but fail to open (copied to another chat, altered). */
  damagedValues: number;
  /** Values that open but under ENCRYPTION_KEY_PREVIOUS or the v1 format: `npm run reencrypt` moves them. */
  staleValues: number;
}

export interface SealedAuditDeps {
  chats: Pick<ChatRepository, "list">;
  vault: Pick<Vault, "open">;
  /** Ends the scan early (the app is stopping). */
  signal?: AbortSignal;
}

/** Opens every stored key and secret once (nothing is written) and counts what does not open. */
export async function auditSealedValues(deps: SealedAuditDeps): Promise<SealedAudit> {
  const audit: SealedAudit = { unreadableChats: 0, unreadableValues: 0, missingKeyIds: [], damagedValues: 0, staleValues: 0 };
  const missing = new Set<string>();
  for await (const record of deps.chats.list()) {
    if (deps.signal?.aborted) break;
    let unreadable = false;
    for (const field of SEALED_FIELDS) {
      const sealed = record[field];
      if (!sealed) continue;
      try {
        if (deps.vault.open(sealed, record.chatId, VAULT_FIELD[field]).stale) audit.staleValues += 1;
      } catch (error) {
        unreadable = true;
        audit.unreadableValues += 1;
        const keyId = sealedKeyId(sealed);
        if ((error as { reason?: unknown }).reason === VAULT_ERROR_REASONS.unknownKey && keyId) missing.add(keyId);
        else audit.damagedValues += 1;
      }
    }
    if (unreadable) audit.unreadableChats += 1;
  }
  audit.missingKeyIds = [...missing].sort();
  return audit;
}

/**
 * At start: says loudly when stored secrets cannot be opened with the
 * configured keys (a key removed before `npm run reencrypt` finished), since
 * those chats would otherwise just read as not connected. Never throws.
 */
export async function checkSealedValuesAtStart(deps: SealedAuditDeps & { logger: Logger }): Promise<void> {
  let audit: SealedAudit;
  try {
    audit = await auditSealedValues(deps);
  } catch (error) {
    if (deps.signal?.aborted) {
      deps.logger.debug({ err: error }, "stored secrets check ended by the stop");
      return;
    }
    deps.logger.warn({ err: error }, "could not check whether the stored secrets open with the configured keys");
    return;
  }
  if (deps.signal?.aborted) return;
  const { unreadableChats, unreadableValues, missingKeyIds, damagedValues, staleValues } = audit;
  if (missingKeyIds.length > 0) {
    deps.logger.error(
      { chats: unreadableChats, values: unreadableValues, missingKeyIds },
      `${unreadableChats} chat(s) hold secrets sealed under a key this process does not have (key id ${missingKeyIds.join(", ")}): ` +
        "they read as not connected until that key is back. Set ENCRYPTION_KEY_PREVIOUS to it, restart, and run `npm run reencrypt` again",
    );
  } else if (damagedValues > 0) {
    deps.logger.warn(
      { chats: unreadableChats, values: damagedValues },
      `${unreadableChats} chat(s) hold secrets that do not open for their chat (copied or altered): they read as not connected`,
    );
  }
  if (staleValues > 0) {
    deps.logger.info(
      { values: staleValues },
      `${staleValues} stored secret(s) are still under ENCRYPTION_KEY_PREVIOUS or the v1 format: run \`npm run reencrypt\` before removing ENCRYPTION_KEY_PREVIOUS`,
    );
  }
}
