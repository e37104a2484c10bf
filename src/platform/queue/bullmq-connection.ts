import { isStoreUnreachable } from "../store/store-outage.js";
import type * as Bullmq from "bullmq";
import type { IRedisClient, Processor, Queue, Worker, WorkerOptions } from "bullmq";
import type { Logger } from "pino";

async function openRedisClient(url: string) {
  const { createClient } = await import("@keyv/redis");
  return createClient({ url });
}
export type RedisClient = Awaited<ReturnType<typeof openRedisClient>>;
export type BullmqModule = typeof Bullmq;

/** BullMQ refuses custom ids containing ':'; base64url keeps every id distinct and legal. */
export function toBullJobId(id: string): string {
  return `p_${Buffer.from(id).toString("base64url")}`;
}

export interface BullmqConnection {
  /** BullMQ itself (its error classes), loaded with the first connection. */
  bullmq(): Promise<BullmqModule>;
  /** The connected node-redis client BullMQ runs on, also used for our own keys (dedup, pacing). */
  redis(): Promise<RedisClient>;
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
 * connected queue, one worker, and an orderly close. BullMQ and the Redis
 * client are loaded on the first connection, so a process on SQLite or
 * Postgres never loads them.
 */
export function createBullmqConnection(deps: { name: string; redisUrl: string; logger: Logger; prefix?: string }): BullmqConnection {
  const prefix = deps.prefix ?? "bull";
  let client: RedisClient | undefined;
  let connecting: Promise<{ client: RedisClient; bullmq: BullmqModule; adapter: IRedisClient }> | undefined;
  let queue: Queue | undefined;
  let worker: Worker | undefined;
  /** An error of the client, the queue or the worker: one of an outage (told once by the store watch) only at debug. */
  const logError =
    (what: string) =>
    (err: unknown): void =>
      deps.logger[isStoreUnreachable(err) ? "debug" : "warn"]({ err }, what);

  function connect(): Promise<{ client: RedisClient; bullmq: BullmqModule; adapter: IRedisClient }> {
    connecting ??= (async () => {
      const [connection, bullmq] = await Promise.all([openRedisClient(deps.redisUrl), import("bullmq")]);
      client = connection;
      // Each reconnection attempt of an outage fails: the store watch tells the outage once, these only at debug.
      connection.on("error", logError("redis client error"));
      await connection.connect();
      // The one BullMQ view of the client that every queue and worker of this connection shares. Given the bare client,
      // BullMQ wraps it anew for each of them, and a wrapper whose queue was closed (one that never became ready, say)
      // goes on repeating the live client's errors with nobody listening: an outage then ends the process.
      const adapter = bullmq.createNodeRedisClient(connection);
      // Repeated from the client, which has told it above.
      adapter.on("error", () => undefined);
      return { client: connection, bullmq, adapter };
    })();
    return connecting;
  }

  // BullMQ sets a connection up once, when the queue or worker is made (a version check on it): when the store goes away
  // during that step, the queue or worker keeps the failure for good and every later call rejects with it at once. A
  // worker's fetch loop then goes round without ever yielding, at 100 % CPU. So neither is kept, or run, until its
  // connection is ready; one that is not is closed and the failure thrown, for the caller to try again with a new one.
  async function whenReady(made: Queue | Worker): Promise<void> {
    try {
      await made.waitUntilReady();
    } catch (error) {
      await made.close().catch((closing: unknown) => deps.logger.debug({ err: closing }, "closing a bullmq connection that never became ready failed"));
      throw error;
    }
  }

  async function ready(): Promise<Queue> {
    const { adapter: connection, bullmq } = await connect();
    if (queue) return queue;
    const made = new bullmq.Queue(deps.name, { connection, prefix });
    // Without a listener BullMQ prints the queue's errors to the console: they go to the log like the worker's.
    made.on("error", logError("bullmq queue error"));
    await whenReady(made);
    queue ??= made;
    if (queue !== made) await made.close();
    return queue;
  }

  return {
    bullmq: async () => (await connect()).bullmq,
    redis: async () => (await connect()).client,
    queue: ready,
    async startWorker(processor, options) {
      if (worker) return;
      await ready();
      const { adapter: connection, bullmq } = await connect();
      const made = new bullmq.Worker(deps.name, processor, { ...options, connection, prefix, autorun: false });
      made.on("error", logError("bullmq worker error"));
      await whenReady(made);
      if (worker) {
        await made.close();
        return;
      }
      worker = made;
      made.run().catch(logError("bullmq worker stopped running"));
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
      const opened = client;
      connecting = undefined;
      client = undefined;
      if (opened) {
        try {
          await opened.close();
        } catch (error) {
          deps.logger.warn({ err: error }, "closing the redis client failed");
        }
      }
    },
  };
}
