import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatRepository, type ChatRepository } from "../../../src/shared/chats/chat-repository.js";
import { withRouteCache } from "../../../src/shared/chats/route-cache.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createVault } from "../../../src/shared/vault.js";
import { createLogger } from "../../../src/platform/logger.js";

const logger = createLogger({ level: "silent" });

describe("route and secret cache", () => {
  let dir: string;
  let store: StoreBackend;
  let clock = 0;
  const key = randomBytes(32);
  const repository = () => createChatRepository({ store, vault: createVault({ key }), logger });
  let cached: ChatRepository;
  /** Another process on the same store: its changes do not reach this process's cache. */
  let other: ChatRepository;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "route-cache-"));
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger, purgeIntervalMs: 0 });
    clock = 0;
    cached = withRouteCache(repository(), { ttlMs: 5_000, now: () => clock });
    other = repository();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves a new secret at once after setWebhookSecret, and no secret after it is removed", async () => {
    const record = await cached.link(5, { apiKey: "key-5-abcdef", webhookSecret: "old-secret" });
    expect(await cached.findChatByRouteId(record.routeId!)).toBe(5);
    expect(await cached.getWebhookSecret(5)).toBe("old-secret");
    expect(await cached.findRoute(record.routeId!)).toEqual({ chatId: 5, webhookSecret: "old-secret" });
    await cached.setWebhookSecret(5, "new-secret");
    expect(await cached.getWebhookSecret(5)).toBe("new-secret");
    expect(await cached.findRoute(record.routeId!)).toEqual({ chatId: 5, webhookSecret: "new-secret" });
    await cached.setWebhookSecret(5, undefined);
    expect(await cached.getWebhookSecret(5)).toBeUndefined();
    expect(await cached.findRoute(record.routeId!)).toEqual({ chatId: 5, webhookSecret: undefined });
  });

  it("stops resolving a route at once after rotateRoute or unlink", async () => {
    const record = await cached.link(6, { apiKey: "key-6-abcdef", webhookSecret: "s" });
    expect(await cached.findChatByRouteId(record.routeId!)).toBe(6);
    expect(await cached.findRoute(record.routeId!)).toEqual({ chatId: 6, webhookSecret: "s" });
    const next = await cached.rotateRoute(6);
    expect(await cached.findChatByRouteId(record.routeId!)).toBeUndefined();
    expect(await cached.findRoute(record.routeId!)).toBeUndefined();
    expect(await cached.findChatByRouteId(next!)).toBe(6);
    expect(await cached.findRoute(next!)).toEqual({ chatId: 6, webhookSecret: "s" });
    await cached.unlink(6);
    expect(await cached.findChatByRouteId(next!)).toBeUndefined();
    expect(await cached.findRoute(next!)).toBeUndefined();
    expect(await cached.getWebhookSecret(6)).toBeUndefined();
  });

  it("sees a secret revoked by another process once the TTL has passed, not before", async () => {
    const { routeId } = await cached.link(7, { apiKey: "key-7-abcdef", webhookSecret: "revoked-soon" });
    expect((await cached.findRoute(routeId!))?.webhookSecret).toBe("revoked-soon");
    await other.setWebhookSecret(7, "rotated");
    clock = 4_999;
    expect((await cached.findRoute(routeId!))?.webhookSecret).toBe("revoked-soon");
    clock = 5_000;
    expect((await cached.findRoute(routeId!))?.webhookSecret).toBe("rotated");
  });

  it("never caches an unknown route: a route created elsewhere resolves at once", async () => {
    const record = await other.link(8, { apiKey: "key-8-abcdef" });
    expect(await cached.findChatByRouteId("x".repeat(22))).toBeUndefined();
    expect(await cached.findRoute("x".repeat(22))).toBeUndefined();
    expect(await cached.findChatByRouteId(record.routeId!)).toBe(8);
    expect(await cached.findRoute(record.routeId!)).toEqual({ chatId: 8, webhookSecret: undefined });
  });
});
