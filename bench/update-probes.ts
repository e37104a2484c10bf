/**
 * Instruments of the updates bench: store calls counted per SQLite file (so
 * several apps in one process are told apart), a bare grammY webhook server,
 * and a driver that posts updates to a webhook the way Telegram does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot, webhookCallback } from "grammy";
import { Pool } from "undici";
import type { Update, UserFromGetMe } from "grammy/types";

/** Store calls of one SQLite file, by namespace. */
export interface StoreCalls {
  reads: Map<string, number>;
  writes: Map<string, number>;
}

/** The SqliteStore methods counted as one read or one write each (a batch is one call). */
export const STORE_READS = ["get", "getMany", "has", "readRaw"] as const;
export const STORE_WRITES = ["set", "setMany", "delete", "deleteMany", "swapRaw", "clear"] as const;

type Counted = Record<string, (...args: unknown[]) => unknown>;

/**
 * Counts calls (each one store round trip, a batch too) of a `SqliteStore` class (src/platform/store/sqlite-store.ts, of
 * any source tree) per database file and namespace. Returns the counts of
 * `filename`, reset by `reset(filename)`.
 */
export function countStoreCalls(storeClass: { prototype: object }): { of(filename: string): StoreCalls; reset(filename: string): void } {
  const byFile = new Map<string, StoreCalls>();
  const of = (filename: string): StoreCalls => {
    let calls = byFile.get(filename);
    if (!calls) byFile.set(filename, (calls = { reads: new Map(), writes: new Map() }));
    return calls;
  };
  // The run leases of the webhook inbox are the database's own calls (one per file, shared by every namespace).
  const leasing = new WeakSet<object>();
  const countLeases = (database: Counted & { filename: string }): void => {
    if (leasing.has(database)) return;
    leasing.add(database);
    for (const name of ["claimLease", "releaseLease", "claimLeases", "releaseLeases"]) {
      const original = database[name];
      if (typeof original !== "function") continue;
      database[name] = (...args: unknown[]) => {
        const map = of(database.filename).writes;
        map.set("(leases)", (map.get("(leases)") ?? 0) + 1);
        return original.apply(database, args);
      };
    }
  };
  const proto = storeClass.prototype as Counted;
  for (const [kind, names] of [
    ["reads", STORE_READS],
    ["writes", STORE_WRITES],
  ] as const) {
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== "function") continue;
      proto[name] = function (this: { namespace?: string; database: Counted & { filename: string } }, ...args: unknown[]) {
        countLeases(this.database);
        const map = of(this.database.filename)[kind];
        const ns = this.namespace ?? "";
        map.set(ns, (map.get(ns) ?? 0) + 1);
        return original.apply(this, args);
      };
    }
  }
  return { of, reset: (filename) => byFile.delete(filename) };
}

/** "chats 1, conversations 1" per update, from counts over `updates` updates. */
export function perUpdate(counts: Map<string, number>, updates: number): { total: number; text: string } {
  let total = 0;
  const parts: string[] = [];
  for (const [ns, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    total += n;
    parts.push(`${ns || "(root)"} ${fmt(n / updates)}`);
  }
  return { total: total / updates, text: parts.length > 0 ? parts.join(", ") : "none" };
}

const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(2));
export const formatCount = fmt;

/** A bare grammY bot that only replies, taking updates on a node:http webhook at 127.0.0.1. */
export async function startBareWebhook(bot: Bot): Promise<{ url: string; close(): Promise<void> }> {
  const handle = webhookCallback(bot, "http");
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Creates the bare bot of either mode: replies to /help and /prices, answers inline queries. */
export function bareBot(token: string, apiRoot: string, botInfo: UserFromGetMe): Bot {
  const bare = new Bot(token, { botInfo, client: { apiRoot } });
  bare.command("help", (ctx) => ctx.reply("help"));
  bare.command("prices", (ctx) => ctx.reply("prices"));
  bare.on("inline_query", (ctx) => ctx.answerInlineQuery([]));
  return bare;
}

/** One connection pool per webhook origin, kept across bursts (Telegram keeps its connections too). */
const pools = new Map<string, Pool>();

/**
 * Posts every update to `url` as Telegram does (JSON, the secret header),
 * `concurrency` requests in flight; throws on an answer other than 200.
 * Over undici's own request API: the global `fetch`'s web streams cost the
 * poster a third of its time, and the poster must not be what limits a run.
 */
export async function postUpdates(url: string, updates: readonly Update[], options: { secret?: string; concurrency: number }): Promise<void> {
  const { origin, pathname } = new URL(url);
  let pool = pools.get(origin);
  if (!pool) pools.set(origin, (pool = new Pool(origin, { connections: options.concurrency })));
  let next = 0;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.secret) headers["x-telegram-bot-api-secret-token"] = options.secret;
  const worker = async (): Promise<void> => {
    while (next < updates.length) {
      const update = updates[next]!;
      next += 1;
      const res = await pool.request({ method: "POST", path: pathname, headers, body: JSON.stringify(update) });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode} to update ${update.update_id}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
}

/** Closes the pools `postUpdates` opened. */
export async function closePosters(): Promise<void> {
  await Promise.all([...pools.values()].map((p) => p.close()));
  pools.clear();
}
