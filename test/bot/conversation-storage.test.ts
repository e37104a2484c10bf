import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConversationData, VersionedState } from "@grammyjs/conversations";
import type { Context } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createConversationStorage } from "../../src/bot/conversation-storage.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { KeyValue, StoreBackend } from "../../src/platform/store/types.js";
import { createVault } from "../../src/shared/vault.js";
import { createLogger } from "../../src/platform/logger.js";

const logger = createLogger({ level: "silent" });
const vault = createVault({ key: randomBytes(32) });
/** What the storage reads of an update's context: its chat id. */
const chat = (id: number) => ({ chatId: id }) as unknown as Context;
/** An inline query or a button under an inline message: no chat. */
const chatless = { chatId: undefined } as unknown as Context;
const state = (n: number): VersionedState<ConversationData> => ({ version: [0, 1], state: { flow: [{ args: String(n) }] } as unknown as ConversationData });

/** The store with the conversation namespace's reads and writes counted. */
function counted(store: StoreBackend): { store: StoreBackend; calls: { get: number; set: number; delete: number } } {
  const calls = { get: 0, set: 0, delete: 0 };
  const wrap = (kv: KeyValue): KeyValue =>
    new Proxy(kv, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (prop === "get" || prop === "set" || prop === "delete") calls[prop] += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    store: { ...store, kind: store.kind, namespace: (name) => (name === "conversations" ? wrap(store.namespace(name)) : store.namespace(name)) },
    calls,
  };
}

describe("conversation storage", () => {
  let dir: string;
  let store: StoreBackend;
  const storage = (backend: StoreBackend, soleWriter: boolean) =>
    createConversationStorage({ store: backend, vault, logger, version: 1, ttlMs: 60_000, soleWriter });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "conversation-storage-"));
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger, purgeIntervalMs: 0 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads and writes nothing for an update without a chat", async () => {
    const { store: backend, calls } = counted(store);
    const { adapter } = storage(backend, true);
    expect(await adapter.read(chatless)).toBeUndefined();
    await adapter.write(chatless, state(1));
    await adapter.delete(chatless);
    expect(calls).toEqual({ get: 0, set: 0, delete: 0 });
    expect(await store.namespace("conversations").get("undefined")).toBeUndefined();
  });

  it("as the sole writer, reads a chat without a conversation once, and reads it again once a conversation is written", async () => {
    const { store: backend, calls } = counted(store);
    const { adapter } = storage(backend, true);
    expect(await adapter.read(chat(7))).toBeUndefined();
    expect(await adapter.read(chat(7))).toBeUndefined();
    expect(calls.get).toBe(1);
    await adapter.write(chat(7), state(1));
    expect(await adapter.read(chat(7))).toEqual(state(1));
    await adapter.delete(chat(7));
    expect(await adapter.read(chat(7))).toBeUndefined();
    expect(await adapter.read(chat(7))).toBeUndefined();
    expect(calls.get).toBe(3);
  });

  it("a conversation stored before a restart is read by the next process", async () => {
    const before = storage(store, true);
    await before.adapter.write(chat(8), state(2));
    const after = storage(store, true);
    expect(await after.adapter.read(chat(8))).toEqual(state(2));
  });

  it("without being the sole writer (Redis), sees a conversation another process started after it read none", async () => {
    const here = storage(store, false);
    const elsewhere = storage(store, false);
    expect(await here.adapter.read(chat(9))).toBeUndefined();
    await elsewhere.adapter.write(chat(9), state(3));
    expect(await here.adapter.read(chat(9))).toEqual(state(3));
  });

  it("keeps the chat id as the key, so states stored under the key storage are still found", async () => {
    const { adapter } = storage(store, true);
    await adapter.write(chat(10), state(4));
    expect(typeof (await store.namespace("conversations").get("10"))).toBe("string");
  });
});
