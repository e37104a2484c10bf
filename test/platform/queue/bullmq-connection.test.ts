/**
 * The BullMQ plumbing the push queue, the webhook inbox and the timed jobs share, over a Redis of the test's own that
 * goes away: a queue made twice at once (one then closed) leaves nothing behind that ends the process when the
 * client's reconnection attempts fail, and the connection works again once Redis is back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createBullmqConnection } from "../../../src/platform/queue/bullmq-connection.js";
import { captureLogger } from "../store/helpers.js";
import { ownRedis, redisServerMissing, type OwnRedis } from "../../support/redis-server.js";
import { waitUntil } from "../../support/wait.js";

const missing = redisServerMissing();
if (missing) console.log(`skipping the BullMQ connection tests: ${missing}`);

describe.skipIf(missing !== undefined)("the BullMQ connection over a Redis that goes away", () => {
  let redis: OwnRedis | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  it("outlives an outage after one of two queues made at once was closed, and serves again once Redis is back", async () => {
    redis = await ownRedis();
    await redis.start();
    const log = captureLogger();
    const bull = createBullmqConnection({ name: "outage", redisUrl: redis.url, logger: log.logger });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.prependListener("uncaughtException", onUncaught);
    try {
      // Both callers find no queue yet and each makes one; the one made second is closed.
      const [a, b] = await Promise.all([bull.queue(), bull.queue()]);
      expect(a).toBe(b);

      await redis.kill();
      // The client's reconnection attempts fail, again and again.
      await waitUntil(() => log.records().filter((r) => r["msg"] === "redis client error").length >= 3, { what: "reconnection failures" });
      expect(uncaught).toEqual([]);

      await redis.start();
      await waitUntil(
        async () => {
          try {
            return (await (await bull.queue()).getJobCounts("waiting")) !== undefined;
          } catch {
            return false;
          }
        },
        { what: "the queue answering again" },
      );
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await bull.close();
    }
  });
});
