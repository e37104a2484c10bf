/**
 * kill -9 of the bot (`node dist/main.js`) in the middle of announcing "fulfilled", over Postgres.
 * The order is a keep plan's first slot, announced as an edit of the plan's card (a renewal has no
 * notice of its own). A trigger on the test's own store table holds the first write of a card edit
 * showing an order delivered (its push job) in pg_sleep: the bot is then inside the announcement,
 * holding its claim, exactly when it is killed.
 *
 * What must hold: the plan's next order is bought while the card's edit is still stuck (a renewal
 * follows the delivery, not its announcement); the claim the dead process left runs out within
 * the item lease's time (it carries the dead process's id and was renewed only while it lived);
 * the restarted bot announces the order on the card (delivered, or already behind a newer order
 * of the plan, which is bought only after it was delivered), and never as a message of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgPool, type PgPool } from "../../src/platform/store/postgres-store.js";
import { postgresTarget, RECEIVER, waitFor, type StoreTarget } from "../app-harness.js";
import { startKillWorld, type BotProcess, type KillWorld } from "./kill-world.js";

const postgresUrl = process.env["TEST_POSTGRES_URL"];
if (!postgresUrl)
  console.log("skipping kill -9 while announcing on Postgres: TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)");

const CHAT = 6363;
const LEASE_TTL_MS = 3_000;
const ENV = {
  TRACKING_LEASE_TTL_MS: String(LEASE_TTL_MS),
  TRACKING_SCAN_MS: "1000",
  // The next slot is due right after the current order is delivered.
  KEEP_TICK_MS: "50",
  KEEP_RENEWAL_LEAD_MS: "60000",
  KEEP_LEAD_MAX_FRACTION: "0.99",
  KEEP_LEASE_TTL_MS: "2000",
};

interface Claim {
  key: string;
  owner: string;
  expires_at: string;
}

describe.skipIf(!postgresUrl)("kill -9 while a fulfilled order is being announced, on Postgres", () => {
  let target: StoreTarget;
  let table: string;
  let pool: PgPool;
  let w: KillWorld;

  beforeAll(async () => {
    target = postgresTarget(postgresUrl!);
    table = new URL(target.url).searchParams.get("table")!;
    pool = createPgPool(postgresUrl!);
    w = await startKillWorld(target.url, ENV);
  }, 60_000);

  afterAll(async () => {
    await w?.close();
    if (pool) {
      // A sleeper left by a failed run holds the table: ended first, or the drops below wait for it.
      await endSleepers();
      await pool.query(`DROP TABLE IF EXISTS public.${table}_leases`);
      await pool.query(`DROP FUNCTION IF EXISTS public.${table}_stall() CASCADE`);
      await pool.query(`DROP SEQUENCE IF EXISTS public.${table}_stall`);
      await pool.end();
    }
    await target?.cleanup();
  });

  /** The first push job of a card edit showing an order delivered sleeps in its write; later ones go through (a sequence: not rolled back when the sleeper is ended). */
  async function armStall(): Promise<void> {
    await pool.query(`CREATE SEQUENCE public.${table}_stall`);
    await pool.query(`CREATE FUNCTION public.${table}_stall() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.key LIKE '%keep-card-%' AND NEW.value LIKE '%: <b>fulfilled%' AND nextval('public.${table}_stall') = 1 THEN PERFORM pg_sleep(600); END IF;
        RETURN NEW;
      END $$`);
    await pool.query(`CREATE TRIGGER ${table}_stall BEFORE INSERT OR UPDATE ON public.${table} FOR EACH ROW EXECUTE FUNCTION public.${table}_stall()`);
  }

  const endSleepers = () =>
    pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [table],
    );

  const sleepers = async (): Promise<number> =>
    Number(
      (
        await pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
          [table],
        )
      ).rows[0]?.["n"],
    );

  const announceClaims = async (): Promise<Claim[]> =>
    (await pool.query(`SELECT key, owner, expires_at FROM public.${table}_leases WHERE key LIKE '%tracking-announce:%_fulfilled'`)).rows as unknown as Claim[];

  const dbNowMs = async (): Promise<number> =>
    Number((await pool.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms`)).rows[0]?.["ms"]);

  /** Orders the simulator created for the plan's slot `n`. */
  const slotBought = (n: number) =>
    w.sim.requests.some(
      (r) => r.method === "POST" && r.path === "/v1/orders" && r.status === 201 && new RegExp(`^keep-[0-9a-f]+-${n}$`).test(r.idempotencyKey ?? ""),
    );

  it(
    "buys the plan's next order while the card's edit is stuck, and the restarted bot draws the card, past a claim that ran out with its owner",
    { timeout: 180_000 },
    async () => {
      let bot: BotProcess = await w.startBot();
      await w.say(CHAT, `/link ${w.account.apiKey}`, (m) => /connected/i.test(m.text));
      await armStall();

      const proposal = await w.say(CHAT, `/keep ${RECEIVER} 100k 1m`, (m) => m.text.includes("Keep charged"));
      await w.tap(CHAT, "✅ Start", proposal.messageId);

      // The bot is inside the announcement of slot 0's "fulfilled": its claim taken, the card's edit asleep in its write.
      const [claim] = await waitFor(async () => ((await sleepers()) === 1 ? announceClaims() : false), "the announcement to stall", 60_000);
      const orderId = /_order_([0-9a-f]{24})_fulfilled$/.exec(claim!.key)?.[1] ?? "";
      const notices = () => w.botTexts(CHAT, new RegExp(`^✅ Order ${orderId} is fulfilled`)).length;
      const card = () => w.textOf(CHAT, proposal.messageId);
      const deliveredOnCard = () => card().includes(`Last order ${orderId}: fulfilled`);
      /** Slot 0 delivered, or a later order of the plan as the newest (bought only once slot 0 was delivered). */
      const announced = () => deliveredOnCard() || (/Last order [0-9a-f]{24}:/.test(card()) && !card().includes(`Last order ${orderId}:`));
      // The claim names the process holding it.
      expect(claim!.owner.startsWith(`${bot.pid}-`)).toBe(true);

      // The renewal follows the delivery (in the history), not the card's edit, which is still stuck.
      await waitFor(() => slotBought(1), "the plan's next order bought", 40_000);
      expect(deliveredOnCard()).toBe(false);

      await w.kill(bot);
      await endSleepers();
      // What the dead process left: a claim that runs out within one item lease, not a minute later.
      const left = (await announceClaims()).find((c) => c.key === claim!.key);
      const now = await dbNowMs();
      const killedAt = Date.now();
      expect(left?.owner).toBe(claim!.owner);
      expect(Number(left?.expires_at) - now).toBeLessThanOrEqual(LEASE_TTL_MS);
      expect(deliveredOnCard()).toBe(false);

      bot = await w.startBot();
      await waitFor(() => announced(), "the order announced on the card by the restarted bot", 60_000).catch((error: unknown) => {
        throw new Error(
          `${String(error)}; the card reads ${JSON.stringify(card())}; the restarted bot said:\n${bot.output().split("\n").slice(-30).join("\n")}`,
        );
      });
      process.stdout.write(
        `announce after kill: ${JSON.stringify({ leaseTtlMs: LEASE_TTL_MS, claimLeftMs: Number(left?.expires_at) - now, announcedMs: Date.now() - killedAt })}\n`,
      );
      // A claim found taken was looked at again within its time, whatever the pace.
      const waits = bot
        .output()
        .split("\n")
        .filter((line) => line.includes("status being announced by another process") && line.includes(orderId))
        .map((line) => (JSON.parse(line) as { withinMs: number }).withinMs);
      for (const withinMs of waits) expect(withinMs).toBeLessThanOrEqual(LEASE_TTL_MS);
      // Its tracking is over, and at no point was it a message of its own.
      await waitFor(
        async () => {
          for await (const [key] of w.store.namespace("tracking").entries()) if (key.includes(orderId)) return false;
          return true;
        },
        "slot 0's tracking to end",
        40_000,
      );
      expect(notices()).toBe(0);
    },
  );
});
