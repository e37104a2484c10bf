/**
 * Nothing a user sends is kept in the clear, in either way updates come in
 * (polling, BOT_MODE=webhook) and on every backend: the whole app is sent an
 * API key and a webhook secret through /link (guided and in one line), and a
 * private key and a recovery phrase pasted by mistake; once it has stopped,
 * none of them is in any file its store wrote (SQLite's main file, -wal and
 * -shm; the AOF of a redis-server of the test's own; Postgres's WAL and the
 * table's heap file, dead rows included, where readable), in its logs, or in
 * /metrics. Every secret is random per run, so a match can only be this run's.
 */
import { randomBytes, randomInt } from "node:crypto";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Update } from "grammy/types";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.js";
import { createPgPool } from "../src/platform/store/postgres-store.js";
import { tronweb } from "../src/shared/tron/tronweb.js";
import { failOnLoggedErrors, postgresTarget, sqliteTarget, startAppWorld, type AppWorld, type StoreTarget } from "./app-harness.js";
import { filesUnder, findInFiles, findInText } from "./support/files-at-rest.js";
import { ownRedis, redisServerMissing, type OwnRedis } from "./support/redis-server.js";

const POSTGRES_URL = process.env["TEST_POSTGRES_URL"];
const REDIS_MISSING = redisServerMissing();
if (REDIS_MISSING) console.log(`[secrets-at-rest] skipping Redis: ${REDIS_MISSING}`);
if (!POSTGRES_URL) console.log("[secrets-at-rest] skipping Postgres: TEST_POSTGRES_URL is not set");

const MODES = ["polling", "webhook"] as const;
type Mode = (typeof MODES)[number];

/** 12 words of the BIP39 list, drawn at random: a recovery phrase no other run sends. */
function recoveryPhrase(): string {
  const list = tronweb().utils.ethersUtils.wordlists["en"]!;
  return Array.from({ length: 12 }, () => list.getWord(randomInt(2048))).join(" ");
}

/** Where one run's store keeps its files, and what else to search there once the app has stopped. */
interface Backend {
  label: string;
  skip?: string | undefined;
  /** A store of this run's own, fresh for each mode. */
  target(mode: Mode): Promise<StoreTarget>;
  /** What the store wrote that contains one of `needles` (after the app stopped). */
  leaks(target: StoreTarget, needles: ReadonlyMap<string, string>): Promise<string[]>;
}

let redis: OwnRedis | undefined;

const sqlite: Backend = {
  label: "SQLite",
  target: () => Promise.resolve(sqliteTarget()),
  leaks(target, needles) {
    const dir = dirname(target.url.slice("sqlite://".length));
    const files = filesUnder(dir);
    // The main file, and -wal / -shm while they exist: what is searched must be what the store wrote.
    expect(files.some((f) => f.endsWith("bot.sqlite"))).toBe(true);
    return Promise.resolve(findInFiles(files, needles));
  },
};

const redisBackend: Backend = {
  label: "Redis (its own server, append-only file on)",
  skip: REDIS_MISSING,
  target: (mode) => Promise.resolve({ url: `${redis!.url}/${mode === "polling" ? 1 : 2}`, cleanup: () => Promise.resolve() }),
  leaks(_target, needles) {
    const files = filesUnder(redis!.dir);
    expect(files.some((f) => f.endsWith(".aof"))).toBe(true);
    return Promise.resolve(findInFiles(files, needles));
  },
};

const postgres: Backend = {
  label: "Postgres",
  skip: POSTGRES_URL ? undefined : "TEST_POSTGRES_URL is not set",
  target: () => Promise.resolve(postgresTarget(POSTGRES_URL!)),
  async leaks(target, needles) {
    const table = new URL(target.url).searchParams.get("table")!;
    const pool = createPgPool(POSTGRES_URL!);
    try {
      // Written as well as read: a value in the clear would be found in a live row here.
      const rows = await pool.query(`SELECT t::text AS text FROM public.${table} t`);
      const live = findInText(rows.rows.map((r) => String(r["text"])).join("\n"), needles).map((label) => `${label} in a live row`);
      // Dead rows (the inbox deletes every copy) reach the heap file at a checkpoint; the WAL has every write.
      await pool.query("CHECKPOINT");
      const dataDir = String((await pool.query("SHOW data_directory")).rows[0]?.["data_directory"]);
      const heap = String((await pool.query(`SELECT pg_relation_filepath('public.${table}') AS path`)).rows[0]?.["path"]);
      let files: string[];
      try {
        files = [...readdirSync(join(dataDir, "pg_wal")).map((name) => join(dataDir, "pg_wal", name)), join(dataDir, heap)];
        files = files.filter((f) => !f.endsWith("archive_status"));
      } catch (error) {
        console.log(`[secrets-at-rest] Postgres's files are not readable here (${(error as Error).message}): only its rows were searched`);
        return live;
      }
      return [...live, ...findInFiles(files, needles)];
    } finally {
      await pool.end();
    }
  },
};

const BACKENDS = [sqlite, redisBackend, postgres];

describe("what users send is never kept in the clear", () => {
  let w: AppWorld;
  let nextChat = 61_000;

  beforeAll(async () => {
    // Every level: a line logged only at trace or debug would still be a secret in someone's log store.
    w = await startAppWorld({ logLevel: "trace" });
    if (!REDIS_MISSING) {
      redis = await ownRedis({ appendOnly: true });
      await redis.start();
    }
  });

  afterAll(async () => {
    await w?.close();
    await redis?.stop();
  });

  failOnLoggedErrors(() => w?.logs);

  for (const backend of BACKENDS) {
    for (const mode of MODES) {
      it.skipIf(backend.skip !== undefined)(
        `${backend.label}, ${mode === "polling" ? "polling" : "BOT_MODE=webhook"}`,
        async () => {
          const guided = w.sim.createAccount();
          const oneLine = w.sim.createAccount();
          const needles = new Map([
            ["guided API key", guided.apiKey],
            ["guided webhook secret", guided.webhookSecret],
            ["one-line API key", oneLine.apiKey],
            ["one-line webhook secret", oneLine.webhookSecret],
            ["private key", randomBytes(32).toString("hex")],
            ["recovery phrase", recoveryPhrase()],
          ]);
          const webhookSecret = randomBytes(24).toString("hex");
          const metricsToken = randomBytes(24).toString("hex");
          const target = await backend.target(mode);
          const logsBefore = w.logs.length;
          let app: App | undefined;
          try {
            app = await w.startApp(target.url, {
              METRICS_TOKEN: metricsToken,
              ...(mode === "webhook" ? { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: webhookSecret } : {}),
            });
            const started = app;

            /** Hands the update to the bot as Telegram would in this mode. */
            async function deliver(update: Update): Promise<void> {
              if (mode === "polling") {
                w.front.enqueue(update);
                return;
              }
              const res = await request(`http://127.0.0.1:${String(started.httpPort)}/telegram`, {
                method: "POST",
                headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": webhookSecret },
                body: JSON.stringify(update),
              });
              expect(res.statusCode).toBe(200);
              await res.body.text();
            }

            /** Sends `text` as the user and waits for the bot's message matching `pattern`, sent or edited in place (the guided /link is one card). */
            async function say(chat: number, text: string, pattern: RegExp): Promise<string> {
              const reply = w.tg.waitForBotText(chat, 20_000, (m) => pattern.test(m.text));
              await deliver(w.tg.text(chat, text));
              return (await reply).text;
            }

            const [guidedChat, oneLineChat, pasteChat] = [nextChat, nextChat + 1, nextChat + 2];
            nextChat += 3;
            for (const chat of [guidedChat, oneLineChat, pasteChat]) w.tg.addChat(chat);

            await say(guidedChat, "/link", /API key/);
            await say(guidedChat, guided.apiKey, /webhook secret/);
            expect(await say(guidedChat, guided.webhookSecret, /connected/)).toContain("stored encrypted");
            expect(await say(oneLineChat, `/link ${oneLine.apiKey} ${oneLine.webhookSecret}`, /connected/)).toContain("stored encrypted");
            // The bot deletes both and warns: the warning names what it took the message for.
            await say(pasteChat, needles.get("private key")!, /removed your message because it looked like a private key/);
            await say(pasteChat, needles.get("recovery phrase")!, /removed your message because it looked like a recovery phrase/);

            const metrics = await request(`http://127.0.0.1:${String(started.httpPort)}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
            expect(metrics.statusCode).toBe(200);
            const scraped = await metrics.body.text();
            expect(scraped).toContain("bot_updates_total");
            await w.stopApp(app);
            app = undefined;

            expect(findInText(scraped, needles), "secrets in /metrics").toEqual([]);
            const logged = w.logs
              .slice(logsBefore)
              .map((l) => JSON.stringify(l))
              .join("\n");
            expect(logged).toContain(mode === "webhook" ? "telegram" : "started");
            expect(findInText(logged, needles), "secrets in the logs").toEqual([]);
            expect(await backend.leaks(target, needles), "secrets in what the store wrote").toEqual([]);
          } finally {
            if (app) await w.stopApp(app);
            await target.cleanup();
          }
        },
        120_000,
      );
    }
  }
});
