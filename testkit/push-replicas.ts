/**
 * N processes working one BullMQ push queue on one Redis against the strict
 * fake Bot API (it answers 429 past Telegram's limits): what they deliver
 * together, per second, next to the allowed rate. Each replica is a child
 * process (testkit/push-replica-child.ts), so the shared budget is the one
 * in Redis, not one process's memory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createClient } from "@keyv/redis";
import { pino } from "pino";
import { createBullmqPushQueue } from "../src/platform/push/create-bullmq-push-queue.js";
import type { PushJob } from "../src/platform/push/types.js";
import type { StoreBackend } from "../src/platform/store/types.js";
import { startFakeTelegram, type RecordedCall } from "./fake-telegram/fake-telegram.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = "testkit/push-replica-child.ts";

export interface PushReplicasOptions {
  processes: number;
  messages: number;
  chats: number;
  redisUrl: string;
  timeoutMs: number;
  /** A checkout whose replicas (its `testkit/push-replica-child.ts` and sources) do the sending; default this one. */
  root?: string | undefined;
  /** The replicas' `limits.marginMs` (Telegram's default margin when not given). */
  marginMs?: number | undefined;
}

export interface PushReplicasResult {
  processes: number;
  delivered: number;
  /** Sends Telegram accepted, per second, from the first enqueue to the last delivery. */
  perSecond: number;
  /** The most sends Telegram accepted in any sliding second. */
  peakPerSecond: number;
  /** The most sends one chat got in any sliding second. */
  peakPerChatPerSecond: number;
  rateLimited: number;
  /** Job ids Telegram accepted more than once. */
  duplicates: number;
}

/** The most entries of `times` (sorted) within any window of `windowMs`. */
function peakInWindow(times: number[], windowMs: number): number {
  let peak = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= windowMs) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

function figures(calls: RecordedCall[]): Pick<PushReplicasResult, "peakPerSecond" | "peakPerChatPerSecond" | "duplicates"> {
  const sent = calls.filter((c) => c.method === "sendMessage" && c.ok);
  const byChat = new Map<number, number[]>();
  const texts = new Set<string>();
  let duplicates = 0;
  for (const call of sent) {
    const chatId = Number(call.params["chat_id"]);
    byChat.set(chatId, [...(byChat.get(chatId) ?? []), call.at]);
    const text = String(call.params["text"]);
    if (texts.has(text)) duplicates++;
    texts.add(text);
  }
  const perChat = [...byChat.values()].map((times) => peakInWindow(times, 1000));
  return {
    peakPerSecond: peakInWindow(
      sent.map((c) => c.at),
      1000,
    ),
    peakPerChatPerSecond: Math.max(0, ...perChat),
    duplicates,
  };
}

export async function startReplica(env: NodeJS.ProcessEnv, root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout?.setEncoding("utf8");
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("ready\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`push replica exited (${String(code)}) before it was ready`)));
  });
  await ready;
  return child;
}

export async function stopReplica(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

export async function runPushReplicas(options: PushReplicasOptions): Promise<PushReplicasResult> {
  const tg = await startFakeTelegram({ rateLimits: true });
  const chats = Array.from({ length: options.chats }, (_, i) => 4_000 + i);
  for (const id of chats) tg.addChat(id);
  const run = randomBytes(4).toString("hex");
  const name = `replicas-${run}`;
  const prefix = `bench-${run}`;
  const env = {
    PUSH_REPLICA_TOKEN: tg.token,
    PUSH_REPLICA_API_ROOT: tg.apiRoot,
    PUSH_REPLICA_REDIS_URL: options.redisUrl,
    PUSH_REPLICA_QUEUE: name,
    PUSH_REPLICA_PREFIX: prefix,
    ...(options.marginMs === undefined ? {} : { PUSH_REPLICA_MARGIN_MS: String(options.marginMs) }),
  };
  // Only enqueues: its worker never starts, the replicas do the sending.
  const producer = createBullmqPushQueue({
    store: { kind: "redis" } as unknown as StoreBackend,
    logger: pino({ level: "silent" }),
    redisUrl: options.redisUrl,
    name,
    bullPrefix: prefix,
    transport: () => Promise.reject(new Error("the producer does not send")),
  });
  const replicas: ChildProcess[] = [];
  try {
    for (let i = 0; i < options.processes; i++) replicas.push(await startReplica(env, options.root ?? ROOT));
    const jobs: PushJob[] = Array.from({ length: options.messages }, (_, i) => {
      const chatId = chats[i % chats.length]!;
      return { id: `${run}:${i}`, chatId, method: "sendMessage", params: { chat_id: chatId, text: `note ${i}` } };
    });
    const started = Date.now();
    for (const job of jobs) await producer.enqueue(job);
    const delivered = () => tg.callsOf("sendMessage").filter((c) => c.ok).length;
    const deadline = started + options.timeoutMs;
    while (delivered() < jobs.length) {
      if (Date.now() > deadline) throw new Error(`${options.processes} replica(s): ${delivered()}/${jobs.length} delivered before the deadline`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const sent = tg.callsOf("sendMessage").filter((c) => c.ok);
    const seconds = (Math.max(...sent.map((c) => c.at)) - started) / 1000;
    return {
      processes: options.processes,
      delivered: sent.length,
      perSecond: sent.length / seconds,
      rateLimited: tg.calls.filter((c) => c.errorCode === 429).length,
      ...figures(tg.calls),
    };
  } finally {
    for (const child of replicas) await stopReplica(child);
    await producer.stop();
    const client = createClient({ url: options.redisUrl });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
    await client.close();
    await tg.close();
  }
}
