/**
 * Two BOT_MODE=webhook apps on one Redis, as two replicas behind a load
 * balancer: Telegram's delivery and its redelivery of one update land on
 * different replicas, and the chat is answered once.
 */
import { randomBytes } from "node:crypto";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.js";
import { redisTarget, startAppWorld, type AppWorld, type StoreTarget } from "./app-harness.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the webhook replicas test: TEST_REDIS_URL is not set");

const SECRET = randomBytes(24).toString("hex");

describe.skipIf(!REDIS_URL)("two BOT_MODE=webhook replicas over one Redis (TEST_REDIS_URL)", () => {
  let target: StoreTarget | undefined;
  let w: AppWorld;
  let a: App;
  let b: App;

  beforeAll(async () => {
    target = await redisTarget(REDIS_URL!);
    w = await startAppWorld();
    const webhook = { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: SECRET };
    a = await w.startApp(target, webhook);
    b = await w.startApp(target, webhook);
  });

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  async function post(app: App, update: object): Promise<unknown> {
    const res = await request(`http://127.0.0.1:${app.httpPort}/telegram`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
      body: JSON.stringify(update),
    });
    expect(res.statusCode).toBe(200);
    return ((await res.body.json()) as { result: unknown }).result;
  }

  const systemReads = () => w.sim.requests.filter((r) => r.method === "GET" && r.path === "/v1/public/system").length;

  it("handles an update delivered to both replicas once, while it is handled and after", async () => {
    const chat = 9301;
    w.tg.addChat(chat);
    const readsBefore = systemReads();
    // Slow enough that the second delivery comes while the first is still being handled.
    w.sim.faults.inject({ method: "GET", path: "/v1/public/system", kind: "delay", ms: 1_500, times: 1 });
    const update = w.tg.text(chat, "/system");
    const results = await Promise.all([post(a, update), post(b, update)]);
    expect(results.sort()).toEqual(["accepted", "duplicate"]);

    const reply = await w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.startsWith("Service status"));
    expect(reply.text).toContain("Energy pools");
    expect(await post(b, update)).toBe("duplicate");
    expect(await post(a, update)).toBe("duplicate");
    expect(systemReads()).toBe(readsBefore + 1);
    expect(w.tg.botMessages(chat)).toHaveLength(1);
  });

  it("keeps taking new updates on either replica", async () => {
    const chat = 9302;
    w.tg.addChat(chat);
    const first = w.tg.waitForBotMessage(chat, 20_000, (m) => m.text.startsWith("Service status"));
    expect(await post(b, w.tg.text(chat, "/system"))).toBe("accepted");
    await first;
    expect(await post(a, w.tg.text(chat, "/system"))).toBe("accepted");
    await expect.poll(() => w.tg.botMessages(chat).length, { timeout: 20_000 }).toBe(2);
  });
});
