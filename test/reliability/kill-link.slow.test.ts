/**
 * kill -9 of the real bot process right after the guided /link showed "now
 * send the webhook secret", then a restart over the same store: the flow is
 * found waiting for the secret (its step was stored before the prompt went
 * out), so the secret sent next is taken as the secret and the chat is linked
 * with both; the service never sees the secret as a key (`Bearer whsec_…`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteTarget, type StoreTarget } from "../app-harness.js";
import { startKillWorld, type BotProcess, type KillWorld } from "./kill-world.js";

const CHAT = 6262;

describe("kill -9 right after the guided /link asked for the webhook secret (SQLite)", () => {
  let target: StoreTarget;
  let w: KillWorld;
  let bot: BotProcess;

  beforeAll(async () => {
    target = sqliteTarget();
    w = await startKillWorld(target);
    bot = await w.startBot();
  }, 60_000);

  afterAll(async () => {
    await w?.close();
    await target?.cleanup();
  });

  it("the restarted bot takes the secret sent next as the secret and links the chat with key and secret", async () => {
    await w.say(CHAT, "/link", (m) => m.text.includes("Send me your API key"));
    // The flow is one card: the key's question becomes the secret's.
    await w.say(CHAT, w.account.apiKey, (m) => m.text.includes("Now send the webhook secret"), true);
    await w.kill(bot);
    bot = await w.startBot();

    const linked = await w.say(
      CHAT,
      w.account.webhookSecret,
      (m) => /connected|API key|secret/i.test(m.text) && !m.text.includes("Now send the webhook secret"),
      true,
    );
    expect(linked.text).toContain("connected");
    expect(linked.text).toContain("The webhook secret is stored encrypted");
    expect(w.sim.requests.filter((r) => /^Bearer\s+whsec[_-]/i.test(r.authorization ?? ""))).toEqual([]);
    expect(w.sim.requests.filter((r) => r.path === "/v1/balance").every((r) => r.authorization === `Bearer ${w.account.apiKey}`)).toBe(true);
  });
});
