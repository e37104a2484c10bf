import { createCipheriv, randomBytes } from "node:crypto";
import { keyIdOf } from "../../src/shared/vault.js";

/** A value as the v1 vault format sealed it: the chat bound into the associated data, the field not. */
export function sealV1(key: Buffer, plaintext: string, chatId: number | string): string {
  const keyId = keyIdOf(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`v1.${keyId}|chat:${chatId}`, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", keyId, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}
