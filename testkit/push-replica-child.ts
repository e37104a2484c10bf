/**
 * One replica of the BullMQ push queue for the scale-out bench and test: a
 * child process that works the shared queue named by its environment and
 * sends to the Bot API at PUSH_REPLICA_API_ROOT. Prints "ready" once its
 * worker runs; stops cleanly on SIGTERM. With PUSH_REPLICA_FREEZE_AFTER_SEND
 * it prints "sent" after its first send is answered and never finishes it.
 */
import { Api } from "grammy";
import { pino } from "pino";
import { createBullmqPushQueue } from "../src/platform/push/create-bullmq-push-queue.js";
import type { StoreBackend } from "../src/platform/store/types.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const api = new Api(required("PUSH_REPLICA_TOKEN"), { apiRoot: required("PUSH_REPLICA_API_ROOT") });
const queue = createBullmqPushQueue({
  // The BullMQ queue keeps everything in Redis: the store is never read.
  store: { kind: "redis" } as unknown as StoreBackend,
  logger: pino({ level: "silent" }),
  redisUrl: required("PUSH_REPLICA_REDIS_URL"),
  name: required("PUSH_REPLICA_QUEUE"),
  bullPrefix: required("PUSH_REPLICA_PREFIX"),
  transport: (job) => api.raw[job.method](job.params as never),
  ...(process.env["PUSH_REPLICA_MARGIN_MS"] ? { limits: { marginMs: Number(process.env["PUSH_REPLICA_MARGIN_MS"]) } } : {}),
  // A process that stops dead once Telegram answered a send, before BullMQ completes the job (a test kills it there).
  ...(process.env["PUSH_REPLICA_FREEZE_AFTER_SEND"] ? { onDelivered: () => new Promise<void>(() => process.stdout.write("sent\n")) } : {}),
});
await queue.start();
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void queue.stop().then(() => process.exit(0));
});
