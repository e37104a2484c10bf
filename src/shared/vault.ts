import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from "node:crypto";

/**
 * Seals per-chat secrets (service API keys, webhook secrets, conversation
 * state) with AES-256-GCM.
 *
 * Format: `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). The header,
 * the chat id and the field (what the value is: "api-key", "webhook-secret"…)
 * are bound in as associated data, so a value copied to another chat or
 * another field, or relabelled with another key id or format, fails to open.
 * A value sealed under `previousKey`, or in the older `v1` format (which bound
 * the chat but not the field), still opens, flagged `stale`, until `reseal`
 * moves it over.
 */

const FORMAT = "v2";
/** Read only: the chat was bound, the field was not. */
const LEGACY_FORMAT = "v1";
const FIELD = /^[a-z][a-z0-9.-]{0,63}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/**
 * Fingerprint purposes whose subkeys a vault keeps. Purposes are names in the
 * code, a handful; past this a purpose's subkey is derived per call rather
 * than let a caller with made-up purposes grow the vault.
 */
const MAX_SUBKEYS = 32;

export const VAULT_ERROR_REASONS = {
  invalidKey: "invalid-key",
  malformed: "malformed",
  unknownKey: "unknown-key",
  authFailed: "auth-failed",
  invalidChat: "invalid-chat",
  invalidField: "invalid-field",
} as const;

export type VaultErrorReason = (typeof VAULT_ERROR_REASONS)[keyof typeof VAULT_ERROR_REASONS];

/** Messages name what failed, never the plaintext, the sealed value or key bytes. */
export class VaultError extends Error {
  override readonly name = "VaultError";
  readonly reason: VaultErrorReason;

  constructor(reason: VaultErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export type ChatId = number | string;

export interface VaultDeps {
  /** 32 bytes. */
  key: Buffer;
  /** The key being rotated out; values sealed with it open as stale. */
  previousKey?: Buffer | undefined;
}

export interface OpenedValue {
  plaintext: string;
  /** Sealed under the previous key or in the v1 format: reseal it. */
  stale: boolean;
}

/**
 * `field` names what the value is ("api-key", "webhook-secret"…): lower-case
 * letters, digits, `.` and `-`. A value opens only for the chat and field it
 * was sealed for.
 */
export interface Vault {
  seal(plaintext: string, chatId: ChatId, field: string): string;
  open(sealed: string, chatId: ChatId, field: string): OpenedValue;
  /** The value re-encrypted under the current key and format, or undefined if it already is. */
  reseal(sealed: string, chatId: ChatId, field: string): string | undefined;
  /**
   * A one-way tag of `value` (HMAC-SHA-256 under a subkey of the current key,
   * 128 bits, base64url) for `purpose`: stable while the key is, reveals
   * nothing of the value, and cannot be recomputed without the key.
   */
  fingerprint(value: string, purpose: string): string;
  /** Identifies the current key (first 8 hex chars of its SHA-256); safe to log. */
  readonly keyId: string;
}

/** Decodes the configured key (standard or URL-safe base64) and insists on 32 bytes. */
export function parseEncryptionKey(base64: string): Buffer {
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    throw new VaultError(VAULT_ERROR_REASONS.invalidKey, "encryption key is not base64");
  }
  const key = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key.length !== KEY_BYTES) {
    throw new VaultError(
      VAULT_ERROR_REASONS.invalidKey,
      `encryption key must decode to ${KEY_BYTES} bytes, got ${key.length} (generate one with: openssl rand -base64 32)`,
    );
  }
  return key;
}

/** The key id a sealed value names (safe to log: it identifies a key, reveals nothing of it), or undefined if it names none. */
export function sealedKeyId(sealed: string): string | undefined {
  const parts = sealed.split(".");
  return parts.length === 5 && /^[0-9a-f]{8}$/.test(parts[1] ?? "") ? parts[1] : undefined;
}

export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function checkKey(key: Buffer, label: string): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new VaultError(VAULT_ERROR_REASONS.invalidKey, `${label} must be ${KEY_BYTES} bytes`);
  }
}

function chatLabel(chatId: ChatId): string {
  if (typeof chatId === "number" ? !Number.isSafeInteger(chatId) : chatId.length === 0) {
    throw new VaultError(VAULT_ERROR_REASONS.invalidChat, "chat id must be a safe integer or a non-empty string");
  }
  // 42 and "42" are the same chat.
  return String(chatId);
}

function fieldLabel(field: string): string {
  if (typeof field !== "string" || !FIELD.test(field)) {
    throw new VaultError(VAULT_ERROR_REASONS.invalidField, "field must be lower-case letters, digits, '.' or '-'");
  }
  return field;
}

function associatedData(format: string, keyId: string, chatId: ChatId, field: string): Buffer {
  const chat = chatLabel(chatId);
  const label = fieldLabel(field);
  return Buffer.from(format === LEGACY_FORMAT ? `${format}.${keyId}|chat:${chat}` : `${format}.${keyId}|chat:${chat}|field:${label}`, "utf8");
}

/** Strict base64url: re-encoding must give the same text, so no two spellings open alike. */
function decodePart(part: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  const bytes = Buffer.from(part, "base64url");
  return bytes.toString("base64url") === part ? bytes : undefined;
}

export function createVault({ key, previousKey }: VaultDeps): Vault {
  checkKey(key, "vault key");
  const keyId = keyIdOf(key);
  // Copies: a caller zeroing or reusing its buffer must not change the vault.
  const currentKey = Buffer.from(key);
  // Key objects made once: a raw Buffer is checked and imported again by every cipher built from it.
  const currentKeyObject = createSecretKey(currentKey);
  const keys = new Map<string, { key: KeyObject; stale: boolean }>([[keyId, { key: currentKeyObject, stale: false }]]);
  if (previousKey !== undefined) {
    checkKey(previousKey, "previous vault key");
    const previousId = keyIdOf(previousKey);
    if (previousId === keyId && !previousKey.equals(key)) {
      throw new VaultError(VAULT_ERROR_REASONS.invalidKey, "current and previous keys share a key id; generate a new key");
    }
    if (previousId !== keyId) keys.set(previousId, { key: createSecretKey(Buffer.from(previousKey)), stale: true });
  }
  /** Fingerprint subkeys by purpose, derived on first use: an HKDF derivation costs several times the HMAC it keys. */
  const subkeys = new Map<string, KeyObject>();

  function subkeyFor(purpose: string): KeyObject {
    const cached = subkeys.get(purpose);
    if (cached !== undefined) return cached;
    // A separate subkey: a fingerprint never doubles as anything the sealing key does.
    const subkey = createSecretKey(Buffer.from(hkdfSync("sha256", currentKey, Buffer.alloc(0), `fingerprint:${fieldLabel(purpose)}`, KEY_BYTES)));
    if (subkeys.size < MAX_SUBKEYS) subkeys.set(purpose, subkey);
    return subkey;
  }

  function seal(plaintext: string, chatId: ChatId, field: string): string {
    const aad = associatedData(FORMAT, keyId, chatId, field);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", currentKeyObject, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, keyId, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
  }

  function open(sealed: string, chatId: ChatId, field: string): OpenedValue {
    const parts = typeof sealed === "string" ? sealed.split(".") : [];
    const format = parts[0] ?? "";
    if (parts.length !== 5 || (format !== FORMAT && format !== LEGACY_FORMAT)) {
      throw new VaultError(VAULT_ERROR_REASONS.malformed, "sealed value is not in v2 (or v1) format");
    }
    const [, id = "", ivText = "", tagText = "", ciphertextText = ""] = parts;
    const iv = decodePart(ivText);
    const tag = decodePart(tagText);
    const ciphertext = decodePart(ciphertextText);
    if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
      throw new VaultError(VAULT_ERROR_REASONS.malformed, "sealed value has a malformed part");
    }
    const entry = keys.get(id);
    if (entry === undefined) {
      throw new VaultError(VAULT_ERROR_REASONS.unknownKey, "sealed value names a key this vault does not hold");
    }
    const aad = associatedData(format, id, chatId, field);
    try {
      const decipher = createDecipheriv("aes-256-gcm", entry.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
      return { plaintext, stale: entry.stale || format === LEGACY_FORMAT };
    } catch {
      // node:crypto's message ("Unsupported state or unable to authenticate data") says nothing useful; ours says what it means.
      throw new VaultError(VAULT_ERROR_REASONS.authFailed, "sealed value failed authentication (other chat, other field, other key, or altered)");
    }
  }

  return {
    seal,
    open,
    reseal(sealed, chatId, field) {
      const { plaintext, stale } = open(sealed, chatId, field);
      return stale ? seal(plaintext, chatId, field) : undefined;
    },
    fingerprint(value, purpose) {
      return createHmac("sha256", subkeyFor(purpose)).update(value, "utf8").digest().subarray(0, 16).toString("base64url");
    },
    keyId,
  };
}
