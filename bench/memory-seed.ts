/**
 * A SQLite store file as a busy deployment has it: many linked chats (keys
 * sealed by the project's vault, bound to their chat, with routes) and
 * tracked orders that stay pending at the simulator, so the app keeps polling
 * them. Rows are written in one transaction with the exact text the store
 * API writes (keyv's envelope over the record store's `{ v, data }`), then a
 * sample is read back through the repository and the record store.
 */
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { pino } from "pino";
import { accountIdOf } from "../src/shared/chats/account-id.js";
import { CHAT_RECORD_VERSION, chatRecordSchema, type ChatRecord } from "../src/shared/chats/chat-record.js";
import { createChatRepository } from "../src/shared/chats/chat-repository.js";
import { newRouteId } from "../src/shared/chats/route-id.js";
import { createServiceClient } from "../src/platform/service/create-service-client.js";
import { openStore } from "../src/platform/store/open-store.js";
import { createRecordStore } from "../src/platform/store/record-store.js";
import { safeSerialize } from "../src/platform/store/safe-serialize.js";
import { openSqliteDatabase } from "../src/platform/store/sqlite-store.js";
import { itemKey, trackedItemSchema, type TrackedItem } from "../src/shared/tracking/tracked-item.js";
import { createVault, parseEncryptionKey } from "../src/shared/vault.js";
import type { Simulator } from "../testkit/simulator/index.js";

/** A valid base58 TRON address the simulator delivers to, as the orders' receiver. */
const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";
const ACCOUNTS = 100;
const ORDERS_PER_REQUEST = 100;
export const FIRST_CHAT_ID = 1_000_000;

export interface SeedOptions {
  file: string;
  chats: number;
  items: number;
  /** Base64, the ENCRYPTION_KEY the app will run with. */
  encryptionKey: string;
  /** Its orders must not move on while measured (a long orderStepMs). */
  sim: Simulator;
}

/** The text a `KeyValue.set(key, record-store envelope)` stores. */
const stored = (version: number, data: unknown) => safeSerialize({ value: { v: version, data } });

/** Seeds `file` and returns the seconds it took. */
export async function seedStore(options: SeedOptions): Promise<number> {
  const started = Date.now();
  const vault = createVault({ key: parseEncryptionKey(options.encryptionKey) });
  const logger = pino({ level: "silent" });
  const client = createServiceClient({ baseUrl: options.sim.baseUrl, logger });
  const keys: { apiKey: string; depositAddress: string | null }[] = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const account = options.sim.createAccount({ balanceSun: 1e15 });
    keys.push({ apiKey: account.apiKey, depositAddress: null });
  }
  const keyOf = (chatIndex: number) => keys[chatIndex % ACCOUNTS]!;

  // One real pending order per tracked item, owned by that item's chat's account.
  const orderIds: string[] = [];
  try {
    for (let at = 0; at < options.items; at += ORDERS_PER_REQUEST) {
      const n = Math.min(ORDERS_PER_REQUEST, options.items - at);
      const byAccount = new Map<number, number>();
      for (let i = at; i < at + n; i += 1) byAccount.set(i % ACCOUNTS, (byAccount.get(i % ACCOUNTS) ?? 0) + 1);
      // Item i belongs to chat i, whose key is keyOf(i): create its order under that key.
      const made = new Map<number, string[]>();
      for (const [account, count] of byAccount) {
        const items = Array.from({ length: count }, () => ({ toAddress: RECEIVER, amount: 65_000, resource: "ENERGY" as const, durationSec: 3_600 }));
        const { orders } = await client.createOrders(keys[account]!.apiKey, items, `seed-${at}-${account}`);
        made.set(
          account,
          orders.map((o) => o.orderId),
        );
      }
      for (let i = at; i < at + n; i += 1) orderIds.push(made.get(i % ACCOUNTS)!.shift()!);
    }
  } finally {
    await client.close();
  }

  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${options.file}${suffix}`, { force: true });
  await openSqliteDatabase(options.file, { checkpoints: false }).close(); // the project's schema
  const db = new Database(options.file);
  const insert = db.prepare<[string, string, string]>("INSERT INTO keyv_entries (namespace, key, value, expires) VALUES (?, ?, ?, NULL)");
  const now = new Date();
  const nowMs = now.getTime();
  db.transaction(() => {
    for (let i = 0; i < options.chats; i += 1) {
      const chatId = FIRST_CHAT_ID + i;
      const { apiKey, depositAddress } = keyOf(i);
      const routeId = newRouteId();
      const record: ChatRecord = {
        chatId,
        apiKeySealed: vault.seal(apiKey, chatId, "api-key"),
        routeId,
        locale: (["en", "ru", "zh"] as const)[i % 3]!,
        notifications: { orders: true, broadcasts: true },
        active: true,
        linkedAt: now.toISOString(),
        accountId: accountIdOf(vault, apiKey, depositAddress),
        linkId: (i + 1).toString(16).padStart(16, "0"),
        updatedAt: now.toISOString(),
      };
      insert.run("chats", String(chatId), stored(CHAT_RECORD_VERSION, chatRecordSchema.parse(record)));
      insert.run("routes", routeId, stored(1, { chatId }));
    }
    for (let i = 0; i < options.items; i += 1) {
      const item: TrackedItem = {
        chatId: FIRST_CHAT_ID + i,
        kind: "order",
        id: orderIds[i]!,
        status: "pending",
        startedAtMs: nowMs,
        // Far enough that no horizon is reached while measured.
        deadlineMs: nowMs + 24 * 3_600_000,
        attempt: 0,
        cardMessageId: 1,
        cardStatus: "pending",
        origin: "bot",
        locale: "en",
        dueAtMs: nowMs + (i % 30_000),
      };
      insert.run("tracking", itemKey(item.chatId, item.kind, item.id), stored(1, trackedItemSchema.parse(item)));
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  await verify(options, vault, orderIds);
  return (Date.now() - started) / 1000;
}

/** Reads a sample back through the project's own code: a wrong row shape fails the bench here, not silently in the app. */
async function verify(options: SeedOptions, vault: ReturnType<typeof createVault>, orderIds: string[]): Promise<void> {
  const logger = pino({ level: "silent" });
  const store = await openStore(`sqlite://${options.file}`, { logger, purgeIntervalMs: 0 });
  try {
    const chats = createChatRepository({ store, vault, logger });
    for (const i of [0, options.chats >> 1, options.chats - 1]) {
      const chatId = FIRST_CHAT_ID + i;
      const linked = await chats.open(chatId);
      if (linked?.apiKey === undefined) throw new Error(`seeded chat ${chatId} does not open`);
      const routeId = linked.record.routeId!;
      if ((await chats.findChatByRouteId(routeId)) !== chatId) throw new Error(`seeded route of chat ${chatId} does not resolve`);
    }
    const items = createRecordStore({ kv: store.namespace("tracking"), schema: trackedItemSchema, version: 1, logger, name: "tracking" });
    if (options.items > 0) {
      const last = options.items - 1;
      const item = await items.get(itemKey(FIRST_CHAT_ID + last, "order", orderIds[last]!));
      if (item?.status !== "pending") throw new Error("seeded tracked item does not read back");
    }
    if (items.corruptCount > 0) throw new Error("seeded rows read as corrupt");
  } finally {
    await store.close();
  }
}
