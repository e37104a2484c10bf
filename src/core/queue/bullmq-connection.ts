import { createClient } from "@keyv/redis";
import { Queue, Worker, type Processor, type WorkerOptions } from "bullmq";
import type { Logger } from "pino";

const connectTo = (url: string) => createClient({ url });
export type RedisClient = ReturnType<typeof connectTo>;

/** BullMQ refuses custom ids containing ':'; base64url keeps every id distinct and legal. */
export function toBullJobId(id: string): string {
  return `p_${Buffer.from(id).toString("base64url")}`;
}

export interface BullmqConnection {
  /** The node-redis client BullMQ runs on, also used for our own keys (dedup, pacing). */
  readonly client: RedisClient;
  /** Connects on first use; the queue is created once. */
  queue(): Promise<Queue>;
  /** Starts the one worker of this process (a second call is a no-op). */
  startWorker(processor: Processor, options: Omit<WorkerOptions, "connection">): Promise<void>;
  /** Jobs waiting, delayed or running, over every process sharing the queue. */
  size(): Promise<number>;
  /** Closes the worker (waiting for jobs in flight), the queue and the client. Idempotent. */
  close(): Promise<void>;
}

/**
 * The plumbing the BullMQ push queue and the BullMQ webhook inbox share:
 * one node-redis client from @keyv/redis (so ioredis is not needed), a lazily
 * connected queue, one worker, and an orderly close.
 */
export function createBullmqConnection(deps: { name: string; redisUrl: string; logger: Logger; prefix?: string }): BullmqConnection {
  const prefix = deps.prefix ?? "bull";
  const client = connectTo(deps.redisUrl);
  client.on("error", (err: unknown) => deps.logger.warn({ err }, "redis client error"));
  let connecting: Promise<unknown> | undefined;
  let queue: Queue | undefined;
  let worker: Worker | undefined;

  async function ready(): Promise<Queue> {
    connecting ??= client.connect();
    await connecting;
    queue ??= new Queue(deps.name, { connection: client, prefix });
    return queue;
  }

  return {
    client,
    queue: ready,
    async startWorker(processor, options) {
      if (worker) return;
      await ready();
      worker = new Worker(deps.name, processor, { ...options, connection: client, prefix });
      worker.on("error", (err) => deps.logger.warn({ err }, "bullmq worker error"));
    },
    async size() {
      const counts = await (await ready()).getJobCounts("waiting", "delayed", "active", "prioritized");
      return Object.values(counts).reduce((a, b) => a + b, 0);
    },
    async close() {
      const w = worker;
      worker = undefined;
      await w?.close();
      await queue?.close();
      queue = undefined;
      if (connecting) {
        connecting = undefined;
        try {
          await client.close();
        } catch (error) {
          deps.logger.warn({ err: error }, "closing the redis client failed");
        }
      }
    },
  };
}
