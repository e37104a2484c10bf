import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatRepository } from "../../../src/shared/chats/chat-repository.js";
import { auditSealedValues, checkSealedValuesAtStart } from "../../../src/shared/chats/sealed-audit.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createVault, keyIdOf } from "../../../src/shared/vault.js";
import { createLogger } from "../../../src/platform/logger.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

const logger = createLogger({ level: "silent" });

describe("the check of stored secrets against the configured keys", () => {
  let store: StoreBackend;
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  beforeEach(async () => {
    store = await openStore("sqlite://:memory:", { logger, purgeIntervalMs: 0 });
  });
  afterEach(async () => {
    await store.close();
  });

  const chatsUnder = (key: Buffer, previousKey?: Buffer) => createChatRepository({ store, vault: createVault({ key, previousKey }), logger });

  it("counts the chats whose values name a key that is not configured, and names that key", async () => {
    await chatsUnder(keyA).link(1, { apiKey: "sk_1_0123456789", webhookSecret: "whsec_1" });
    await chatsUnder(keyA).link(2, { apiKey: "sk_2_0123456789" });
    await chatsUnder(keyB).link(3, { apiKey: "sk_3_0123456789" });
    const chats = chatsUnder(keyB);
    expect(await auditSealedValues({ chats, vault: createVault({ key: keyB }) })).toEqual({
      unreadableChats: 2,
      unreadableValues: 3,
      missingKeyIds: [keyIdOf(keyA)],
      damagedValues: 0,
      staleValues: 0,
    });
    // With the old key back they all open; three are still to be moved.
    expect(await auditSealedValues({ chats, vault: createVault({ key: keyB, previousKey: keyA }) })).toMatchObject({ unreadableChats: 0, staleValues: 3 });
  });

  it("tells a value copied into another chat (a configured key, but it does not open there) from a missing key", async () => {
    const chats = chatsUnder(keyA);
    await chats.link(1, { apiKey: "sk_1_0123456789" });
    await chats.link(2, { apiKey: "sk_2_0123456789" });
    const kv = store.namespace("chats");
    const row1 = (await kv.get<{ v: number; data: Record<string, unknown> }>("1"))!;
    const row2 = (await kv.get<{ v: number; data: Record<string, unknown> }>("2"))!;
    await kv.set("2", { ...row2, data: { ...row2.data, apiKeySealed: row1.data["apiKeySealed"] } });
    expect(await auditSealedValues({ chats, vault: createVault({ key: keyA }) })).toEqual({
      unreadableChats: 1,
      unreadableValues: 1,
      missingKeyIds: [],
      damagedValues: 1,
      staleValues: 0,
    });
  });

  it("logs an error naming the count, the key id and the remedy; nothing at warn or above when every value opens", async () => {
    await chatsUnder(keyA).link(1, { apiKey: "sk_1_0123456789" });
    const missing = captureLogger("info");
    await checkSealedValuesAtStart({ chats: chatsUnder(keyB), vault: createVault({ key: keyB }), logger: missing.logger });
    const [line] = missing.records();
    expect(line).toMatchObject({ level: 50, chats: 1, values: 1, missingKeyIds: [keyIdOf(keyA)] });
    expect(String(line!["msg"])).toMatch(
      /^1 chat\(s\) hold secrets sealed under a key this process does not have \(key id [0-9a-f]{8}\).*ENCRYPTION_KEY_PREVIOUS.*npm run reencrypt/,
    );
    expect(JSON.stringify(missing.records())).not.toContain("sk_1_0123456789");

    const fine = captureLogger("info");
    await checkSealedValuesAtStart({ chats: chatsUnder(keyA), vault: createVault({ key: keyA }), logger: fine.logger });
    expect(fine.records()).toEqual([]);
  });
});
