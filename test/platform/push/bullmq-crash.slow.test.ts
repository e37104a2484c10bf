/**
 * BullMQ mode, a process killed between Telegram's answer and BullMQ's
 * "completed": the job stays active until its lock expires, then BullMQ hands
 * it to another process. That process must not send it a second time.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createClient } from "@keyv/redis";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createBullmqPushQueue } from "../../../src/platform/push/create-bullmq-push-queue.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { startReplica, stopReplica } from "../../../testkit/push-replicas.js";
import { waitUntil } from "../../support/wait.js";

const REDIS_URL = process.env["TEST_REDIS_URL"];
if (!REDIS_URL) console.log("skipping the BullMQ crash-after-send test: TEST_REDIS_URL is not set");
const CHAT = 4_321;

describe.skipIf(!REDIS_URL)("BullMQ push queue, a process killed after Telegram answered (TEST_REDIS_URL)", () => {
  // BullMQ gives a dead worker's job to another one after its lock (30 s) expired and a stalled check (every 30 s) saw it.
  it("does not send the job again from the process that takes it over", { timeout: 150_000 }, async () => {
    const tg = await startFakeTelegram();
    tg.addChat(CHAT);
    const run = randomBytes(4).toString("hex");
    const env = {
      PUSH_REPLICA_TOKEN: tg.token,
      PUSH_REPLICA_API_ROOT: tg.apiRoot,
      PUSH_REPLICA_REDIS_URL: REDIS_URL!,
      PUSH_REPLICA_QUEUE: `crash-${run}`,
      PUSH_REPLICA_PREFIX: `crash-${run}`,
    };
    const producer = createBullmqPushQueue({
      store: { kind: "redis" } as unknown as StoreBackend,
      logger: pino({ level: "silent" }),
      redisUrl: REDIS_URL!,
      name: env.PUSH_REPLICA_QUEUE,
      bullPrefix: env.PUSH_REPLICA_PREFIX,
      transport: () => Promise.reject(new Error("the producer does not send")),
    });
    const frozen = await startReplica({ ...env, PUSH_REPLICA_FREEZE_AFTER_SEND: "1" }, process.cwd());
    let survivor: Awaited<ReturnType<typeof startReplica>> | undefined;
    try {
      let out = "";
      frozen.stdout?.on("data", (chunk: string) => (out += chunk));
      await producer.enqueue({ id: `final-${run}`, chatId: CHAT, method: "sendMessage", params: { chat_id: CHAT, text: `✅ done ${run}` } });
      await waitUntil(() => out.includes("sent\n"), { what: "the frozen process to have sent", timeoutMs: 30_000 });
      const exited = once(frozen, "exit");
      frozen.kill("SIGKILL");
      await exited;

      survivor = await startReplica(env, process.cwd());
      // The job leaves BullMQ's active list once the survivor took it over and finished it.
      await waitUntil(async () => (await producer.size()) === 0, { what: "the job finished by the survivor", timeoutMs: 120_000, intervalMs: 500 });
      expect(
        tg
          .callsOf("sendMessage")
          .filter((c) => c.ok)
          .map((c) => c.params["text"]),
      ).toEqual([`✅ done ${run}`]);
    } finally {
      if (survivor) await stopReplica(survivor);
      if (frozen.exitCode === null && frozen.signalCode === null) frozen.kill("SIGKILL");
      await producer.stop();
      const client = createClient({ url: REDIS_URL! });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${env.PUSH_REPLICA_PREFIX}:*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
      await client.close();
      await tg.close();
    }
  });
});
