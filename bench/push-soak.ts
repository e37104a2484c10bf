/**
 * The push queue at Telegram's real limits (30 msg/s overall, 1/s per chat,
 * 20/min per group) against a fake Bot API that answers 429 above them:
 * delivered/s next to the allowed rate, and how many 429s it met. The
 * baseline is a bare loop sending the same messages as fast as the fake
 * allows, retrying each 429 after its `retry_after`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api, GrammyError } from "grammy";
import { pino } from "pino";
import { createPushQueue } from "../src/platform/push/create-push-queue.js";
import { TELEGRAM_LIMITS, type PushJob } from "../src/platform/push/types.js";
import { openStore } from "../src/platform/store/open-store.js";
import { startFakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { printGoal } from "./rounds.js";

export interface PushSoakOptions {
  messages: number;
  chats: number;
  timeoutMs: number;
}

/**
 * Round-robin over the chats (every chat's first note, then every chat's second): a loop that sends one chat's notes
 * back to back waits out that chat's 1/s limit on each, and would measure its own order rather than the limits.
 */
function jobsFor(chats: number[], messages: number): PushJob[] {
  const perChat = Math.ceil(messages / chats.length);
  return Array.from({ length: perChat }, (_, n) =>
    chats.map((chatId) => ({ id: `n${n}-c${chatId}`, chatId, method: "sendMessage" as const, params: { chat_id: chatId, text: `note ${n}` } })),
  )
    .flat()
    .slice(0, messages);
}

async function soakQueue(options: PushSoakOptions): Promise<{ perSecond: number; rateLimited: number; delivered: number }> {
  const tg = await startFakeTelegram({ rateLimits: true });
  const chats = Array.from({ length: options.chats }, (_, i) => (i % 10 === 0 ? -(2_000 + i) : 2_000 + i));
  for (const id of chats) tg.addChat(id);
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  const dir = mkdtempSync(join(tmpdir(), "bench-soak-"));
  const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger: pino({ level: "silent" }), purgeIntervalMs: 0 });
  const queue = createPushQueue({
    store,
    logger: pino({ level: "silent" }),
    limits: TELEGRAM_LIMITS,
    transport: (job) => api.raw[job.method](job.params as never),
  });
  try {
    const jobs = jobsFor(chats, options.messages);
    await queue.start();
    const started = performance.now();
    for (const job of jobs) await queue.enqueue(job);
    const deadline = Date.now() + options.timeoutMs;
    while ((await queue.size()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const seconds = (performance.now() - started) / 1000;
    const delivered = tg.callsOf("sendMessage").filter((c) => c.ok).length;
    return { perSecond: delivered / seconds, rateLimited: tg.calls.filter((c) => c.errorCode === 429).length, delivered };
  } finally {
    await queue.stop();
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function soakBareLoop(options: PushSoakOptions): Promise<{ perSecond: number; rateLimited: number; delivered: number }> {
  const tg = await startFakeTelegram({ rateLimits: true });
  const chats = Array.from({ length: options.chats }, (_, i) => (i % 10 === 0 ? -(3_000 + i) : 3_000 + i));
  for (const id of chats) tg.addChat(id);
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  try {
    const started = performance.now();
    for (const job of jobsFor(chats, options.messages)) {
      for (;;) {
        try {
          await api.raw.sendMessage(job.params as never);
          break;
        } catch (error) {
          if (!(error instanceof GrammyError) || error.error_code !== 429) throw error;
          await new Promise((r) => setTimeout(r, (error.parameters.retry_after ?? 1) * 1000));
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const delivered = tg.callsOf("sendMessage").filter((c) => c.ok).length;
    return { perSecond: delivered / seconds, rateLimited: tg.calls.filter((c) => c.errorCode === 429).length, delivered };
  } finally {
    await tg.close();
  }
}

export async function benchPushSoak(options: PushSoakOptions): Promise<void> {
  const allowed = TELEGRAM_LIMITS.globalPerSecond;
  const bare = await soakBareLoop(options);
  const queued = await soakQueue(options);
  console.log(`push soak at Telegram's limits (${options.messages} messages, ${options.chats} chats, allowed ${allowed}/s):`);
  console.log(
    `  bare loop with retry_after: ${bare.perSecond.toFixed(1)}/s (${(bare.perSecond / allowed).toFixed(3)} of allowed), ${bare.rateLimited} × 429, ${bare.delivered} delivered`,
  );
  console.log(
    `  push queue (SQLite):        ${queued.perSecond.toFixed(1)}/s (${(queued.perSecond / allowed).toFixed(3)} of allowed), ${queued.rateLimited} × 429, ${queued.delivered} delivered`,
  );
  const share = queued.perSecond / allowed;
  printGoal(
    "3, one process: ≥ 0.93 of the allowed rate with 0 × 429",
    share >= 0.93 && queued.rateLimited === 0,
    `${share.toFixed(3)} of allowed, ${queued.rateLimited} × 429; bare loop ${(bare.perSecond / allowed).toFixed(3)}, ${bare.rateLimited} × 429`,
  );
}
