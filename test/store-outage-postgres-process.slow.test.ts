/**
 * The built bot over a Postgres table of the test's own, whose sessions the
 * test terminates (only the bot's: found by the application_name its URL
 * sets). The bot rides out lost connections, takes its store lock again when
 * no one else took it, and stops with exit code 4 when another process did.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createPgPool, type PgPool } from "../src/platform/store/postgres-store.js";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { EXIT_CODES } from "../src/exit-codes.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { killGroup, startBotProcess, type BotProcess } from "./support/bot-process.js";
import { tcpProxy, type TcpProxy } from "./support/tcp-proxy.js";
import { waitUntil } from "./support/wait.js";

const pgUrl = process.env["TEST_POSTGRES_URL"];
if (!pgUrl) console.warn("store-outage-postgres-process.slow.test: skipped: TEST_POSTGRES_URL is not set");

let tg: FakeTelegram;
let sim: Simulator;
let pool: PgPool;
const tables: string[] = [];
const bots: BotProcess[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  if (!pgUrl) return;
  tg = await startFakeTelegram();
  sim = await startSimulator();
  const url = new URL(pgUrl);
  url.searchParams.set("application_name", "outage-test-side");
  pool = createPgPool(url.toString());
});

afterEach(async () => {
  for (const bot of bots.splice(0)) killGroup(bot);
  for (const proxy of proxies.splice(0)) await proxy.close();
});

afterAll(async () => {
  if (!pgUrl) return;
  for (const table of tables) {
    await pool.query(`DROP TABLE IF EXISTS public.${table}`);
    await pool.query(`DROP TABLE IF EXISTS public.${table}_leases`);
  }
  await pool.end();
  await tg?.close();
  await sim?.stop();
});

/** A table and a session name of this run only: what the test may terminate. */
function ownStore(): { url: string; app: string } {
  const id = randomBytes(4).toString("hex");
  const table = `outage_${id}`;
  tables.push(table);
  const url = new URL(pgUrl!);
  url.searchParams.set("table", table);
  url.searchParams.set("application_name", `outage-bot-${id}`);
  return { url: url.toString(), app: `outage-bot-${id}` };
}

function startBot(storageUrl: string): BotProcess {
  const run = startBotProcess({ token: tg.token, apiRoot: tg.apiRoot, serviceBaseUrl: sim.baseUrl, storageUrl });
  bots.push(run);
  return run;
}

async function readyBot(storageUrl: string, started = startBot(storageUrl)): Promise<BotProcess> {
  const run = started;
  await waitUntil(
    async () => {
      if (run.child.exitCode !== null) throw new Error(`the bot exited:\n${run.output()}`);
      return (await run.readiness()).status === 200;
    },
    { what: "/readyz ready", timeoutMs: 60_000, intervalMs: 100 },
  );
  return run;
}

async function greets(chatId: number): Promise<string> {
  const reply = tg.waitForBotMessage(chatId, 30_000);
  tg.enqueue(tg.text(chatId, "/start"));
  return (await reply).text ?? "";
}

const sessions = async (app: string) =>
  (await pool.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [app])).rows.map((r) => Number(r["pid"]));
const lockHolders = async (app: string) =>
  (
    await pool.query(
      "SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1",
      [app],
    )
  ).rows.map((r) => Number(r["pid"]));
const terminate = (pids: number[]) => pool.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS t(pid)", [pids]);
const said = (run: BotProcess, msg: string) => run.logs().filter((l) => l.msg === msg);

describe.skipIf(!pgUrl)("the bot process when Postgres ends its sessions", () => {
  it("every session of the bot terminated (its lock's too): it takes the lock again and goes on", async () => {
    const { url, app } = ownStore();
    const run = await readyBot(url);
    const [lockPid] = await lockHolders(app);
    expect(lockPid).toBeDefined();

    await terminate(await sessions(app));
    await waitUntil(() => said(run, "store lock taken again: this is still the only bot process on the store").length > 0, {
      what: `the lock taken again:\n${run.output()}`,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    // The log line comes as the lock is granted; the holder's row in pg_locks may lag behind on a loaded server.
    const [again] = await waitUntil(
      async () => {
        const holders = await lockHolders(app);
        return holders.length > 0 ? holders : undefined;
      },
      {
        what: `a session holding the lock again:\n${run.output()}`,
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );
    expect(again).not.toBe(lockPid);

    expect(await greets(7201)).toContain("User7201");
    expect((await run.readiness()).status).toBe(200);
    expect(run.child.exitCode).toBeNull();
    expect(await run.stop()).toMatchObject({ code: 0 });
    expect(run.output()).not.toMatch(/unhandled/i);
  }, 120_000);

  it("its lock connection lost while another process waits for the lock: it stops with exit code 4 and says why", async () => {
    const { url, app } = ownStore();
    const run = await readyBot(url);
    const [lockPid] = await lockHolders(app);
    // The test's own session queues for the same advisory lock: Postgres hands it over the moment the bot's session ends.
    const { rows } = await pool.query("SELECT objid, classid FROM pg_locks WHERE locktype = 'advisory' AND pid = $1", [lockPid]);
    const key = (BigInt(Number(rows[0]!["classid"])) << 32n) | BigInt(Number(rows[0]!["objid"]));
    const signed = BigInt.asIntN(64, key).toString();
    const rival = await pool.connect();
    try {
      const taken = rival.query("SELECT pg_advisory_lock($1::bigint)", [signed]);
      await waitUntil(
        async () =>
          (
            await pool.query(
              "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND l.locktype = 'advisory' AND a.application_name = 'outage-test-side'",
            )
          ).rows.length > 0,
        { what: "the rival waiting for the lock" },
      );
      await terminate([lockPid!]);
      await taken;
      const exit = await run.exited;
      expect(exit.code).toBe(EXIT_CODES.storeInUse);
      expect(run.stderr()).toMatch(/another bot process took this Postgres store while this one's lock connection was lost/);
    } finally {
      rival.release(true);
    }
  }, 120_000);

  it("Postgres unreachable (its own proxy to it stopped): waits at start, rides out the outage, takes its lock again, and goes on", async () => {
    const { url, app } = ownStore();
    const real = new URL(url);
    const proxy = await tcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    proxies.push(proxy);
    const through = new URL(url);
    through.port = String(proxy.port);

    const run = startBot(through.toString());
    onTestFailed(() => console.error(run.output()));
    await waitUntil(() => said(run, "store unreachable at start; waiting for it").length > 0 || (run.child.exitCode !== null && "exited"), {
      what: "the wait at start",
      timeoutMs: 60_000,
      intervalMs: 100,
    }).then((v) => {
      if (v === "exited") throw new Error(`the bot exited instead of waiting:\n${run.output()}`);
    });
    await proxy.start();
    await readyBot(through.toString(), run);
    expect(await greets(7202)).toContain("User7202");

    await proxy.stop();
    await waitUntil(
      async () => {
        if (run.child.exitCode !== null) throw new Error(`the bot exited during the outage:\n${run.output()}`);
        return (await run.readiness().catch((e: unknown) => Promise.reject(new Error(`${String(e)}:\n${run.output()}`)))).status === 503;
      },
      { what: "/readyz not ready", timeoutMs: 30_000, intervalMs: 100 },
    );
    await waitUntil(() => said(run, "store unreachable; waiting for it").length > 0, { what: "the outage in the log", timeoutMs: 30_000, intervalMs: 100 });

    await proxy.start();
    await waitUntil(() => said(run, "store lock taken again: this is still the only bot process on the store").length > 0, {
      what: `the lock taken again:\n${run.output()}`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    await waitUntil(async () => (await run.readiness()).status === 200, { what: "/readyz ready again", timeoutMs: 60_000, intervalMs: 100 });
    expect(await lockHolders(app)).toHaveLength(1);
    expect(await greets(7203)).toContain("User7203");
    expect(said(run, "store unreachable; waiting for it")).toHaveLength(1);
    expect(await run.stop()).toMatchObject({ code: 0 });
    expect(run.output()).not.toMatch(/unhandled/i);
  }, 180_000);
});
