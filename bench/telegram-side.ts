// Telegram's side of the updates bench in a thread of its own: the fake Bot API, the updates it hands out
// or posts, and the count of answers. In production Telegram runs elsewhere; here its HTTP parsing, its
// strict checks of every answer and the posting of webhooks would otherwise share the measured bot's event
// loop and be charged to it (a sixth of the bot's time in a profile). Every bot of the bench, bare or
// whole, gets the same arrangement. Started by bench/updates.ts (tsx registered in the thread).
import { parentPort } from "node:worker_threads";
import type { Update } from "grammy/types";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { closePosters, postUpdates } from "./update-probes.js";

export const UPDATE_KINDS = ["help", "prices", "inline"] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];
const ANSWERS = new Set(["sendmessage", "answerinlinequery"]);
const FIRST_CHAT = 10_000;

export interface BurstJob {
  type: "burst";
  /** Updates in the burst: a third each of /help, /prices and inline queries (or only `kind`), round-robin over `chats`. */
  size: number;
  chats: number;
  kind?: UpdateKind;
  /** Queued for getUpdates, or posted to a webhook `concurrency` at a time. */
  feed: { mode: "queue" } | { mode: "post"; url: string; secret?: string; concurrency: number };
  timeoutMs: number;
}
export type SideMessage =
  | { type: "ready"; token: string; apiRoot: string; botInfo: FakeTelegram["botInfo"] }
  | { type: "done"; updatesPerSecond: number }
  | { type: "failed"; message: string };

function update(tg: FakeTelegram, kind: UpdateKind, chatId: number, languageCode: string): Update {
  if (kind === "inline") return tg.inlineQuery(chatId, "", { languageCode });
  return tg.text(chatId, `/${kind}`, { languageCode });
}

/** Feeds the burst and resolves with its updates/s once every update has been answered. */
async function timeBurst(tg: FakeTelegram, job: BurstJob): Promise<number> {
  const updates = Array.from({ length: job.size }, (_, i) =>
    update(tg, job.kind ?? UPDATE_KINDS[i % 3]!, FIRST_CHAT + (i % job.chats), ["en", "ru", "zh"][i % 3]!),
  );
  let seen = tg.calls.length;
  let answered = 0;
  const started = performance.now();
  const { feed } = job;
  let fed: Promise<void>;
  if (feed.mode === "queue") {
    for (const u of updates) tg.enqueue(u);
    fed = Promise.resolve();
  } else {
    fed = postUpdates(feed.url, updates, { concurrency: feed.concurrency, ...(feed.secret ? { secret: feed.secret } : {}) });
  }
  let feedError: Error | undefined;
  fed.catch((error: unknown) => {
    feedError = error instanceof Error ? error : new Error(String(error));
  });
  while (answered < updates.length) {
    if (feedError) throw feedError;
    if (performance.now() - started > job.timeoutMs) throw new Error(`only ${answered} of ${updates.length} updates answered in ${job.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (; seen < tg.calls.length; seen += 1) if (ANSWERS.has(tg.calls[seen]!.method.toLowerCase())) answered += 1;
  }
  await fed;
  return (updates.length / (performance.now() - started)) * 1000;
}

const port = parentPort;
if (port) {
  const tg = await startFakeTelegram();
  port.on("message", (job: BurstJob | "close") => {
    if (job === "close") {
      void closePosters()
        .then(() => tg.close())
        .then(() => port.close());
      return;
    }
    void timeBurst(tg, job).then(
      (updatesPerSecond) => port.postMessage({ type: "done", updatesPerSecond } satisfies SideMessage),
      (error: unknown) => port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies SideMessage),
    );
  });
  port.postMessage({ type: "ready", token: tg.token, apiRoot: tg.apiRoot, botInfo: tg.botInfo } satisfies SideMessage);
}
