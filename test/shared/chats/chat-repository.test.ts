import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatRepository, type ChatRepository } from "../../../src/shared/chats/chat-repository.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { createReadMemo } from "../../../src/platform/store/read-memo.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createVault } from "../../../src/shared/vault.js";
import { createLogger } from "../../../src/platform/logger.js";
import { sealV1 } from "../../support/vault-v1.js";
import { countingReads } from "../../platform/store/helpers.js";

const logger = createLogger({ level: "silent" });

/** The store with each read of its namespaces (or of the one named) told to `onRead`. */
function countingStore(store: StoreBackend, onRead: () => void, only?: string): StoreBackend {
  return {
    ...store,
    kind: store.kind,
    namespace(name) {
      const kv = store.namespace(name);
      return only === undefined || name === only ? countingReads(kv, onRead) : kv;
    },
  };
}

describe("chat repository", () => {
  let dir: string;
  let store: StoreBackend;
  let chats: ChatRepository;
  const key = randomBytes(32);
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "chats-"));
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger, purgeIntervalMs: 0 });
    chats = createChatRepository({ store, vault: createVault({ key }), logger });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("links with a sealed key and secret, a 128-bit route, and an index back to the chat", async () => {
    const record = await chats.link(10, { apiKey: "key-10-abcdef", webhookSecret: "whsec-10" });
    expect(record.apiKeySealed).not.toContain("key-10");
    expect(Buffer.from(record.routeId!, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(await chats.getApiKey(10)).toBe("key-10-abcdef");
    expect(await chats.getWebhookSecret(10)).toBe("whsec-10");
    expect(await chats.findChatByRouteId(record.routeId!)).toBe(10);
    expect(await chats.findChatByRouteId("nope")).toBeUndefined();
  });

  it("finds a webhook's chat and secret with one read of the route and one of the chat's record", async () => {
    let reads = 0;
    const counted = countingStore(store, () => (reads += 1));
    const repository = createChatRepository({ store: counted, vault: createVault({ key }), logger });
    const record = await repository.link(12, { apiKey: "key-12-abcdef", webhookSecret: "whsec-12" });
    reads = 0;
    expect(await repository.findRoute(record.routeId!)).toEqual({ chatId: 12, webhookSecret: "whsec-12" });
    expect(reads).toBe(2);
    expect(await repository.findRoute("n".repeat(24))).toBeUndefined();
    const next = await repository.rotateRoute(12);
    expect(await repository.findRoute(record.routeId!)).toBeUndefined();
    expect(await repository.findRoute(next!)).toEqual({ chatId: 12, webhookSecret: "whsec-12" });
  });

  it("names the account by its deposit address, else by an HMAC of the key (never the key), and forgets it at unlink", async () => {
    const apiKey = "sk_account_key_0123456789";
    await chats.link(20, { apiKey, depositAddress: "TXYZaddress" });
    const byAddress = await chats.account(20);
    expect(byAddress?.id).toBe("addr:TXYZaddress");
    // The key's fingerprint is an alias: what was kept under it joins the address.
    expect(byAddress?.aliases).toEqual([expect.stringMatching(/^key:[A-Za-z0-9_-]{22}$/)]);
    expect(JSON.stringify(await chats.get(20))).not.toContain(apiKey);
    const firstLink = (await chats.get(20))?.linkId;
    expect(await chats.unlink(20)).toBe(true);
    expect(await chats.account(20)).toBeUndefined();
    await chats.link(20, { apiKey, depositAddress: null });
    expect(await chats.account(20)).toEqual({ id: byAddress!.aliases[0], aliases: [] });
    // Every link is a new one: quotes and drafts of the first are void under it.
    expect((await chats.get(20))?.linkId).not.toBe(firstLink);
    // Another vault key gives other fingerprints: they cannot be recomputed without it.
    const other = createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger });
    await other.link(21, { apiKey });
    expect((await other.account(21))?.id).not.toBe(byAddress!.aliases[0]);
  });

  it("rotateRoute gives a new route and the old one stops resolving", async () => {
    const { routeId } = await chats.link(11, { apiKey: "key-11-abcdef" });
    const next = await chats.rotateRoute(11);
    expect(next).not.toBe(routeId);
    expect(await chats.findChatByRouteId(routeId!)).toBeUndefined();
    expect(await chats.findChatByRouteId(next!)).toBe(11);
    expect(await chats.rotateRoute(999)).toBeUndefined();
  });

  it("setWebhookSecret sets and removes; unlink removes key, secret and route but keeps the locale", async () => {
    await chats.setLocale(12, "ru");
    const { routeId } = await chats.link(12, { apiKey: "key-12-abcdef" });
    await chats.setWebhookSecret(12, "whsec-12");
    expect(await chats.getWebhookSecret(12)).toBe("whsec-12");
    await chats.setWebhookSecret(12, undefined);
    expect(await chats.getWebhookSecret(12)).toBeUndefined();
    expect(await chats.unlink(12)).toBe(true);
    expect(await chats.getApiKey(12)).toBeUndefined();
    expect(await chats.findChatByRouteId(routeId!)).toBeUndefined();
    expect(await chats.getLocale(12)).toBe("ru");
    expect(await chats.unlink(12)).toBe(false);
    await expect(chats.setWebhookSecret(12, "x")).rejects.toThrow(/not linked/);
  });

  it("keeps the Telegram language given at link, changes it only on a chat that has a record, and leaves the record as it is for the same code", async () => {
    // A clock that moves at every read: a record touched again would carry a later updatedAt.
    let tick = Date.UTC(2026, 0, 1);
    chats = createChatRepository({ store, vault: createVault({ key }), logger, now: () => new Date((tick += 1_000)) });
    await chats.setLanguageCode(30, "ru");
    expect(await chats.get(30)).toBeUndefined();
    await chats.link(30, { apiKey: "key-30-abcdef", languageCode: "zh-hans" });
    expect((await chats.get(30))?.languageCode).toBe("zh-hans");
    await chats.setLanguageCode(30, "ru");
    const changed = await chats.get(30);
    expect(changed?.languageCode).toBe("ru");
    await chats.setLanguageCode(30, "ru");
    expect(await chats.get(30)).toEqual(changed);
    // A re-link without a language (Telegram did not send one) keeps the one seen last.
    await chats.link(30, { apiKey: "key-30-abcdef" });
    expect((await chats.get(30))?.languageCode).toBe("ru");
  });

  it("notifications and the active flag", async () => {
    expect((await chats.setNotifications(13, { orders: false })).orders).toBe(false);
    expect((await chats.get(13))?.notifications).toEqual({ orders: false, broadcasts: true });
    await chats.markInactive(13);
    expect((await chats.get(13))?.active).toBe(false);
    await chats.markActive(13);
    expect((await chats.get(13))?.active).toBe(true);
  });

  it("a value sealed under the previous key opens, is re-sealed on read, and resealAll moves the rest", async () => {
    await chats.link(14, { apiKey: "key-14-abcdef", webhookSecret: "whsec-14" });
    await chats.link(15, { apiKey: "key-15-abcdef" });
    const before = (await chats.get(14))!.apiKeySealed!;
    const rotated = createChatRepository({ store, vault: createVault({ key: randomBytes(32), previousKey: key }), logger });
    expect(await rotated.getApiKey(14)).toBe("key-14-abcdef");
    expect((await rotated.get(14))!.apiKeySealed).not.toBe(before);
    // Chat 14's key was re-sealed by the read above: only the other two values move now.
    expect(await rotated.resealAll()).toEqual({ resealed: 2, current: 1, failed: 0 });
    expect(await rotated.resealAll()).toEqual({ resealed: 0, current: 3, failed: 0 });
    expect(await rotated.getApiKey(15)).toBe("key-15-abcdef");
  });

  it("reads a corrupt or older-version record as absent (reported, not thrown) and overwrites it on the next write", async () => {
    const kv = store.namespace("chats");
    await kv.set("18", { v: 1, data: { chatId: 18, apiKeySealed: 7 } });
    await kv.set("19", { v: 99, data: { chatId: 19 } });
    await kv.set("20", "not an envelope");
    const reported: { id?: string; reason?: string }[] = [];
    const watching = createLogger({
      level: "warn",
      destination: { write: (line: string) => void reported.push(JSON.parse(line) as { id?: string; reason?: string }) },
    });
    const chats = createChatRepository({ store, vault: createVault({ key }), logger: watching });
    for (const id of [18, 19, 20]) {
      expect(await chats.get(id)).toBeUndefined();
      expect(await chats.isLinked(id)).toBe(false);
      expect(await chats.getApiKey(id)).toBeUndefined();
    }
    const listed: number[] = [];
    for await (const record of chats.list()) listed.push(record.chatId);
    expect(listed).not.toEqual(expect.arrayContaining([18, 19, 20]));
    expect(new Set(reported.map((r) => `${r.id}:${r.reason}`))).toEqual(new Set(["18:schema-mismatch", "19:wrong-version", "20:not-an-envelope"]));
    await chats.link(18, { apiKey: "key-18-abcdef" });
    expect(await chats.getApiKey(18)).toBe("key-18-abcdef");
    expect((await kv.get<{ v: number }>("18"))!.v).toBe(1);
  });

  it("refuses a sealed key copied into another chat's record", async () => {
    await chats.link(16, { apiKey: "key-16-abcdef" });
    const sealed = (await chats.get(16))!.apiKeySealed!;
    await chats.link(17, { apiKey: "key-17-abcdef" });
    const kv = store.namespace("chats");
    const row = (await kv.get<{ v: number; data: Record<string, unknown> }>("17"))!;
    await kv.set("17", { ...row, data: { ...row.data, apiKeySealed: sealed } });
    expect(await chats.getApiKey(17)).toBeUndefined();
    // A key that cannot be used does not make the chat linked (/start and /balance agree).
    expect(await chats.isLinked(17)).toBe(false);
    expect(await chats.isLinked(16)).toBe(true);
  });

  it("refuses a sealed webhook secret copied into the API key field of the same chat", async () => {
    await chats.link(19, { apiKey: "key-19-abcdef", webhookSecret: "whsec-19" });
    const kv = store.namespace("chats");
    const row = (await kv.get<{ v: number; data: Record<string, unknown> }>("19"))!;
    await kv.set("19", { ...row, data: { ...row.data, apiKeySealed: row.data["webhookSecretSealed"] } });
    expect(await chats.getApiKey(19)).toBeUndefined();
    expect(await chats.getWebhookSecret(19)).toBe("whsec-19");
  });

  it("opens values stored in the v1 format (field not bound), re-seals them bound to their field, and resealAll moves the rest", async () => {
    await chats.link(20, { apiKey: "placeholder", webhookSecret: "placeholder" });
    await chats.link(21, { apiKey: "placeholder" });
    const kv = store.namespace("chats");
    for (const [chatId, values] of [
      [20, { apiKeySealed: "key-20-abcdef", webhookSecretSealed: "whsec-20" }],
      [21, { apiKeySealed: "key-21-abcdef" }],
    ] as const) {
      const row = (await kv.get<{ v: number; data: Record<string, unknown> }>(String(chatId)))!;
      const legacy = Object.fromEntries(Object.entries(values).map(([field, plain]) => [field, sealV1(key, plain, chatId)]));
      await kv.set(String(chatId), { ...row, data: { ...row.data, ...legacy } });
    }
    expect(await chats.getApiKey(20)).toBe("key-20-abcdef");
    expect((await chats.get(20))!.apiKeySealed!.startsWith("v2.")).toBe(true);
    expect((await chats.get(20))!.webhookSecretSealed!.startsWith("v1.")).toBe(true);
    expect(await chats.resealAll()).toEqual({ resealed: 2, current: 1, failed: 0 });
    for (const chatId of [20, 21]) {
      const record = (await chats.get(chatId))!;
      for (const sealed of [record.apiKeySealed, record.webhookSecretSealed].filter(Boolean)) expect(sealed!.startsWith("v2.")).toBe(true);
    }
    expect(await chats.getWebhookSecret(20)).toBe("whsec-20");
    expect(await chats.getApiKey(21)).toBe("key-21-abcdef");
  });

  it("gives a second chat of an account the account's route, and keeps it for the others when the chat it resolves to unlinks", async () => {
    const first = await chats.link(21, { apiKey: "key-21-abcdef", webhookSecret: "whsec-a", depositAddress: "TAccount1" });
    const second = await chats.link(22, { apiKey: "key-22-abcdef", webhookSecret: "whsec-b", depositAddress: "TAccount1" });
    expect(second.routeId).toBe(first.routeId);
    expect(await chats.accountChats("addr:TAccount1")).toEqual([21, 22]);
    // The chat linked last with a secret: the service signs with its secret now.
    expect(await chats.findChatByRouteId(first.routeId!)).toBe(22);
    expect(await chats.unlink(22)).toBe(true);
    expect(await chats.accountChats("addr:TAccount1")).toEqual([21]);
    expect(await chats.findChatByRouteId(first.routeId!)).toBe(21);
    expect(await chats.unlink(21)).toBe(true);
    expect(await chats.findChatByRouteId(first.routeId!)).toBeUndefined();
  });

  it("inside one unit of work the chat's record is read once, however often the record, its key and its account are asked for", async () => {
    const memo = createReadMemo();
    let reads = 0;
    const counted = countingStore(store, () => (reads += 1), "chats");
    const remembering = createChatRepository({ store: counted, vault: createVault({ key }), logger, memo });
    await remembering.link(30, { apiKey: "key-30-abcdef", depositAddress: "TAddress30" });
    reads = 0;
    await memo.run(async () => {
      expect((await remembering.account(30))?.id).toBe("addr:TAddress30");
      expect((await remembering.open(30))?.apiKey).toBe("key-30-abcdef");
      expect(await remembering.getApiKey(30)).toBe("key-30-abcdef");
      expect((await remembering.get(30))?.chatId).toBe(30);
    });
    expect(reads).toBe(1);
    // Outside a unit the account is one read, not two.
    reads = 0;
    await remembering.account(30);
    expect(reads).toBe(1);
    // A change the unit makes is what it reads next.
    await memo.run(async () => {
      await remembering.get(30);
      await remembering.unlink(30);
      expect(await remembering.account(30)).toBeUndefined();
    });
    memo.close();
  });
});
