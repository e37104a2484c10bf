/**
 * The built bot over a Redis of the test's own that goes away and comes back
 * (killed, so it restarts empty: it saves nothing). The process must ride it
 * out: say so once in its log and in /readyz, and carry on when Redis is back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { killGroup, startBotProcess, type BotProcess } from "./support/bot-process.js";
import { ownRedis, redisServerMissing, type OwnRedis } from "./support/redis-server.js";
import { waitUntil } from "./support/wait.js";

const missing = redisServerMissing();
if (missing) console.warn(`store-outage-redis-process.slow.test: skipped: ${missing}`);

let tg: FakeTelegram;
let sim: Simulator;
const bots: BotProcess[] = [];
const servers: OwnRedis[] = [];

beforeAll(async () => {
  if (missing) return;
  tg = await startFakeTelegram();
  sim = await startSimulator();
});

afterEach(async () => {
  for (const bot of bots.splice(0)) killGroup(bot);
  for (const server of servers.splice(0)) await server.kill();
});

afterAll(async () => {
  await tg?.close();
  await sim?.stop();
});

async function redis(): Promise<OwnRedis> {
  const server = await ownRedis();
  servers.push(server);
  return server;
}

/** Debug lines too: the workers' failures during an outage are written at debug. The keep scheduler ticks often. */
function bot(storageUrl: string): BotProcess {
  const run = startBotProcess({
    token: tg.token,
    apiRoot: tg.apiRoot,
    serviceBaseUrl: sim.baseUrl,
    storageUrl,
    extra: { LOG_LEVEL: "debug", KEEP_TICK_MS: "100" },
  });
  bots.push(run);
  return run;
}

/** Resolves with the reply to /start from a chat of its own: a whole flow through the store. */
async function greets(chatId: number): Promise<string> {
  const reply = tg.waitForBotMessage(chatId, 30_000);
  tg.enqueue(tg.text(chatId, "/start"));
  return (await reply).text ?? "";
}

const said = (run: BotProcess, msg: string) => run.logs().filter((l) => l.msg === msg);
const alive = (run: BotProcess) => run.child.exitCode === null && run.child.signalCode === null;

/** Resolves once the bot logged that it waits for the store at start; fails if it exited instead. */
async function seenWaitingAtStart(run: BotProcess): Promise<void> {
  const seen = await waitUntil(() => said(run, "store unreachable at start; waiting for it").length > 0 || (!alive(run) && "exited"), {
    what: "the wait in the log",
    timeoutMs: 60_000,
    intervalMs: 100,
  });
  if (seen === "exited") throw new Error(`the bot exited instead of waiting:\n${run.output()}`);
}

describe.skipIf(missing !== undefined)("the bot process over a Redis that goes away", () => {
  it("keeps running while Redis is down, says so once and in /readyz, and works again once Redis is back (empty: told as data loss)", async () => {
    const server = await redis();
    await server.start();
    const run = bot(server.url);
    await waitUntil(async () => alive(run) && (await run.readiness()).status === 200, {
      what: `/readyz ready:\n${run.output()}`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    expect(await greets(7101)).toContain("User7101");

    await server.kill();
    const down = await waitUntil(
      async () => {
        if (!alive(run)) throw new Error(`the bot exited while Redis was down:\n${run.output()}`);
        const r = await run.readiness();
        return r.status === 503 && r.body;
      },
      { what: "/readyz not ready", timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(down).toMatchObject({ status: "not_ready", store: "down" });
    await waitUntil(() => said(run, "store unreachable; waiting for it").length > 0, { what: "the outage in the log", timeoutMs: 30_000, intervalMs: 100 });
    // The keep renewals' jobs (BullMQ's delayed jobs on Redis) meet the dead store in their worker and its client, again
    // and again (said at debug while the outage is told), and go on.
    const keepJobsFailed = () => [...said(run, "bullmq worker error"), ...said(run, "redis client error")].filter((l) => l["kind"] === "keep-plan");
    await waitUntil(() => keepJobsFailed().length >= 2, { what: `keep jobs during the outage:\n${run.output()}`, timeoutMs: 30_000, intervalMs: 100 });
    // Said above debug only until the store watch looked (a failed read makes it look at once), then at debug.
    expect(keepJobsFailed().filter((l) => l.level > 20).length).toBeLessThanOrEqual(2);
    expect(alive(run)).toBe(true);

    await server.start();
    const up = await waitUntil(
      async () => {
        if (!alive(run)) throw new Error(`the bot exited:\n${run.output()}`);
        const r = await run.readiness();
        return r.status === 200 && r.body;
      },
      { what: "/readyz ready again", timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(up).toMatchObject({ status: "ready", store: "ok" });
    expect(await greets(7102)).toContain("User7102");

    // The restarted Redis came back without the bot's data (no persistence): an error, and in /readyz.
    await waitUntil(() => said(run, "store came back empty: its data was lost (a Redis without persistence restarted?)").length > 0, {
      what: `the data loss in the log:\n${run.output()}`,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect((await run.readiness()).body).toMatchObject({ status: "ready", storeDataLost: true });

    expect(said(run, "store unreachable; waiting for it")).toHaveLength(1);
    expect(said(run, "store reachable again")).toHaveLength(1);
    // No worker repeats the outage tick after tick: every warning or error is said at most twice.
    const counts = new Map<string, number>();
    for (const l of run.logs().filter((line) => line.level >= 40)) counts.set(l.msg, (counts.get(l.msg) ?? 0) + 1);
    expect(
      [...counts].filter(([, n]) => n > 2),
      run.output(),
    ).toEqual([]);
    expect(alive(run)).toBe(true);
    expect(await run.stop()).toMatchObject({ code: 0 });
    expect(run.logs().filter((l) => l.level >= 60)).toEqual([]);
    expect(run.output()).not.toMatch(/unhandled/i);
  }, 180_000);

  it("started while Redis is down, it waits (logging once), and starts once Redis is up", async () => {
    const server = await redis();
    const run = bot(server.url);
    await seenWaitingAtStart(run);
    expect(alive(run)).toBe(true);

    await server.start();
    await waitUntil(
      async () => {
        if (!alive(run)) throw new Error(`the bot exited:\n${run.output()}`);
        return (await run.readiness().catch(() => ({ status: 0 }))).status === 200;
      },
      { what: "/readyz ready", timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(await greets(7103)).toContain("User7103");
    expect(said(run, "store unreachable at start; waiting for it")).toHaveLength(1);
    expect(said(run, "store reachable; starting")).toHaveLength(1);
    // A fresh store is no data loss.
    expect((await run.readiness()).body).not.toHaveProperty("storeDataLost");
    expect(await run.stop()).toMatchObject({ code: 0 });
  }, 180_000);

  it("asked to stop while it waits for Redis at start, it stops at once with exit code 0", async () => {
    const server = await redis();
    const run = bot(server.url);
    await seenWaitingAtStart(run);
    expect(await run.stop()).toMatchObject({ code: 0 });
    expect(said(run, "stopped")).toHaveLength(1);
  }, 120_000);
});
