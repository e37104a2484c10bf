import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import fc from "fast-check";
import { binaryString } from "../support/fuzz.js";
import { describe, expect, it } from "vitest";
import { createVault, keyIdOf, parseEncryptionKey, VaultError, type VaultErrorReason } from "../../src/shared/vault.js";
import { sealV1 } from "../support/vault-v1.js";

const key = Buffer.alloc(32, 1);
const otherKey = Buffer.alloc(32, 2);
const secret = "sk_live_0123456789abcdef";
/** The field most tests seal for. */
const F = "api-key";

function failure(fn: () => unknown): VaultError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(VaultError);
    return error as VaultError;
  }
  throw new Error("expected a VaultError");
}

function expectRefused(fn: () => unknown, reason: VaultErrorReason): void {
  const error = failure(fn);
  expect(error.reason).toBe(reason);
  expect(error.message).not.toContain(secret);
  expect(error.message).not.toContain(key.toString("base64"));
  expect(error.message).not.toContain(key.toString("hex"));
}

/** Replaces one character of the given part with a different base64url character. */
function tamper(sealed: string, partIndex: number): string {
  const parts = sealed.split(".");
  const part = parts[partIndex]!;
  const i = Math.floor(part.length / 2);
  parts[partIndex] = part.slice(0, i) + (part[i] === "A" ? "B" : "A") + part.slice(i + 1);
  return parts.join(".");
}

describe("vault", () => {
  it("opens what it sealed, for the same chat", () => {
    const vault = createVault({ key });
    const sealed = vault.seal(secret, 42, F);
    expect(sealed).toMatch(new RegExp(`^v2\\.${vault.keyId}\\.[\\w-]{16}\\.[\\w-]{22}\\.[\\w-]+$`));
    expect(sealed).not.toContain(secret);
    expect(vault.open(sealed, 42, F)).toEqual({ plaintext: secret, stale: false });
    expect(vault.open(sealed, "42", F)).toEqual({ plaintext: secret, stale: false });
  });

  it("uses a fresh IV every time, so equal secrets never look equal", () => {
    const vault = createVault({ key });
    const sealed = Array.from({ length: 50 }, () => vault.seal(secret, 1, F));
    expect(new Set(sealed).size).toBe(50);
    expect(new Set(sealed.map((s) => s.split(".")[2])).size).toBe(50);
  });

  it("refuses a value copied to another chat", () => {
    const vault = createVault({ key });
    const sealed = vault.seal(secret, 42, F);
    expectRefused(() => vault.open(sealed, 43, F), "auth-failed");
    expectRefused(() => vault.open(sealed, "-10042", F), "auth-failed");
  });

  it("refuses a value whose ciphertext, tag or IV was altered", () => {
    const vault = createVault({ key });
    const sealed = vault.seal(secret, 42, F);
    for (const part of [2, 3, 4]) expectRefused(() => vault.open(tamper(sealed, part), 42, F), "auth-failed");
  });

  it("refuses truncated or malformed values without echoing them", () => {
    const vault = createVault({ key });
    const sealed = vault.seal(secret, 42, F);
    const [, id, iv, tag, ct] = sealed.split(".");
    for (const bad of [
      "",
      "v2",
      sealed.slice(0, -1) + "!",
      `v3.${id}.${iv}.${tag}.${ct}`,
      `v2.${id}.${iv}.${tag}`,
      `v2.${id}.${iv!.slice(2)}.${tag}.${ct}`,
      `v2.${id}.${iv}.${tag}.${ct}.x`,
    ]) {
      const error = failure(() => vault.open(bad, 42, F));
      expect(["malformed", "auth-failed"]).toContain(error.reason);
      if (bad.length > 8) expect(error.message).not.toContain(bad);
    }
  });

  it("refuses a value naming a key it does not hold", () => {
    const sealed = createVault({ key: otherKey }).seal(secret, 42, F);
    expectRefused(() => createVault({ key }).open(sealed, 42, F), "unknown-key");
  });

  it("refuses a value relabelled with another key id", () => {
    const old = createVault({ key: otherKey }).seal(secret, 42, F);
    const vault = createVault({ key, previousKey: otherKey });
    const relabelled = old.replace(keyIdOf(otherKey), vault.keyId);
    expectRefused(() => vault.open(relabelled, 42, F), "auth-failed");
  });

  it("opens a value of the previous key as stale and reseals it under the current key", () => {
    const sealedBefore = createVault({ key: otherKey }).seal(secret, 42, F);
    const vault = createVault({ key, previousKey: otherKey });
    expect(vault.open(sealedBefore, 42, F)).toEqual({ plaintext: secret, stale: true });
    const resealed = vault.reseal(sealedBefore, 42, F);
    expect(resealed).toBeDefined();
    expect(resealed!.split(".")[1]).toBe(vault.keyId);
    expect(vault.open(resealed!, 42, F)).toEqual({ plaintext: secret, stale: false });
    expect(vault.reseal(resealed!, 42, F)).toBeUndefined();
    // Once the old key is dropped from config, the resealed value still opens.
    expect(createVault({ key }).open(resealed!, 42, F).plaintext).toBe(secret);
    expectRefused(() => vault.reseal(sealedBefore, 7, F), "auth-failed");
  });

  it("binds the field: a webhook secret does not open as an API key, nor the other way round", () => {
    const vault = createVault({ key });
    const sealedSecret = vault.seal(secret, 42, "webhook-secret");
    expect(sealedSecret.startsWith("v2.")).toBe(true);
    expect(vault.open(sealedSecret, 42, "webhook-secret")).toEqual({ plaintext: secret, stale: false });
    expectRefused(() => vault.open(sealedSecret, 42, "api-key"), "auth-failed");
    expectRefused(() => vault.open(vault.seal(secret, 42, "api-key"), 42, "webhook-secret"), "auth-failed");
    // Relabelled as v1 (whose associated data has no field), it does not open either.
    expectRefused(() => vault.open(sealedSecret.replace(/^v2\./, "v1."), 42, "api-key"), "auth-failed");
    expectRefused(() => vault.seal(secret, 42, "API key"), "invalid-field");
    expectRefused(() => vault.open(sealedSecret, 42, ""), "invalid-field");
  });

  it("opens a v1 value (chat bound, field not) as stale and reseals it bound to its field", () => {
    const vault = createVault({ key });
    const old = sealV1(key, secret, 42);
    expect(vault.open(old, 42, "api-key")).toEqual({ plaintext: secret, stale: true });
    expectRefused(() => vault.open(old, 43, "api-key"), "auth-failed");
    const resealed = vault.reseal(old, 42, "api-key")!;
    expect(resealed.startsWith("v2.")).toBe(true);
    expect(vault.open(resealed, 42, "api-key")).toEqual({ plaintext: secret, stale: false });
    expectRefused(() => vault.open(resealed, 42, "webhook-secret"), "auth-failed");
    // Under the previous key too.
    const rotated = createVault({ key: otherKey, previousKey: key });
    expect(rotated.open(old, 42, "api-key")).toEqual({ plaintext: secret, stale: true });
  });

  it("keeps its own copy of the key", () => {
    const mine = Buffer.from(key);
    const vault = createVault({ key: mine });
    const sealed = vault.seal(secret, 1, F);
    mine.fill(0);
    expect(vault.open(sealed, 1, F).plaintext).toBe(secret);
  });

  it("names its key by the first 8 hex characters of its SHA-256", () => {
    expect(createVault({ key }).keyId).toBe(keyIdOf(key));
    expect(keyIdOf(key)).toMatch(/^[0-9a-f]{8}$/);
  });

  it("refuses keys that are not 32 bytes and chat ids that are not ids", () => {
    expectRefused(() => createVault({ key: Buffer.alloc(16) }), "invalid-key");
    expectRefused(() => createVault({ key, previousKey: Buffer.alloc(31) }), "invalid-key");
    const vault = createVault({ key });
    expectRefused(() => vault.seal(secret, 1.5, F), "invalid-chat");
    expectRefused(() => vault.seal(secret, "", F), "invalid-chat");
  });

  it("round-trips any text, including unicode, for any chat (property)", () => {
    const vault = createVault({ key: randomBytes(32), previousKey: randomBytes(32) });
    fc.assert(
      fc.property(
        binaryString({ maxLength: 300 }),
        fc.oneof(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), fc.string({ minLength: 1, maxLength: 40 })),
        (plaintext, chatId) => {
          const sealed = vault.seal(plaintext, chatId, F);
          expect(vault.open(sealed, chatId, F)).toEqual({ plaintext, stale: false });
          expect(sealed.split(".")).toHaveLength(5);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("parseEncryptionKey", () => {
  it("accepts 32 bytes in standard or URL-safe base64", () => {
    const bytes = randomBytes(32);
    expect(parseEncryptionKey(bytes.toString("base64")).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(`  ${bytes.toString("base64url")}\n`).equals(bytes)).toBe(true);
  });

  it("refuses other lengths and non-base64 text without echoing it", () => {
    for (const bad of [randomBytes(16).toString("base64"), randomBytes(33).toString("base64"), "not base64 at all!", ""]) {
      const error = failure(() => parseEncryptionKey(bad));
      expect(error.reason).toBe("invalid-key");
      if (bad.length > 0) expect(error.message).not.toContain(bad);
    }
  });
});

describe("vault fingerprints", () => {
  /** The documented construction, computed here on its own: HMAC-SHA-256 under the HKDF subkey of the purpose, 128 bits. */
  const expected = (k: Buffer, value: string, purpose: string) => {
    const subkey = Buffer.from(hkdfSync("sha256", k, Buffer.alloc(0), `fingerprint:${purpose}`, 32));
    return createHmac("sha256", subkey).update(value, "utf8").digest().subarray(0, 16).toString("base64url");
  };

  it("are the HMAC under the purpose's subkey, call after call, for every purpose a vault is asked for", () => {
    const vault = createVault({ key });
    const purposes = Array.from({ length: 50 }, (_, n) => `purpose-${n}`);
    for (let round = 0; round < 3; round += 1) {
      for (const purpose of ["account-key", ...purposes]) expect(vault.fingerprint(secret, purpose)).toBe(expected(key, secret, purpose));
    }
    expect(vault.fingerprint(secret, "account-key")).not.toBe(vault.fingerprint(secret, "other-purpose"));
    expect(vault.fingerprint(secret, "account-key")).not.toBe(vault.fingerprint(`${secret}x`, "account-key"));
  });

  it("depend on the vault's own key only: another vault with the same key agrees, one with another key does not", () => {
    const k = Buffer.from(key);
    const vault = createVault({ key: k });
    const first = vault.fingerprint(secret, "account-key");
    // The caller reusing its buffer changes nothing: the vault holds a copy.
    k.fill(9);
    expect(vault.fingerprint(secret, "account-key")).toBe(first);
    expect(createVault({ key }).fingerprint(secret, "account-key")).toBe(first);
    expect(createVault({ key: otherKey }).fingerprint(secret, "account-key")).not.toBe(first);
    expect(() => vault.fingerprint(secret, "Not A Purpose")).toThrow(VaultError);
  });
});
