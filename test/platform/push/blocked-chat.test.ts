import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPushQueue } from "../../../src/platform/push/create-push-queue.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startFakeTelegram, type FakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";
import { waitUntil } from "../../support/wait.js";

const logger = pino({ level: "silent" });

describe("push queue and the stored blocked flag", () => {
  let dir: string;
  let tg: FakeTelegram;
  let store: StoreBackend;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "push-blocked-"));
    tg = await startFakeTelegram();
    store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
  });

  afterEach(async () => {
    await store.close();
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("drops a job for a chat that blocked the bot without trying the send, and still sends to others", async () => {
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const blocked = new Set([601]);
    tg.blockChat(601);
    tg.addChat(602);
    const asked: number[] = [];
    const queue = createPushQueue({
      store,
      logger,
      transport: (job) => api.raw[job.method](job.params as never),
      isChatBlocked: (chatId) => {
        asked.push(chatId);
        return Promise.resolve(blocked.has(chatId));
      },
      limits: { globalPerSecond: 1_000, perChatPerSecond: 1_000, perGroupPerMinute: 1_000, marginMs: 0 },
    });
    await queue.start();
    await queue.enqueue({ id: "a", chatId: 601, method: "sendMessage", params: { chat_id: 601, text: "to a blocked chat" } });
    await queue.enqueue({ id: "b", chatId: 602, method: "sendMessage", params: { chat_id: 602, text: "to an open chat" } });
    await waitUntil(async () => (await queue.size()) === 0, { what: "an empty queue", timeoutMs: 10_000 });
    await queue.stop();
    expect(await queue.size()).toBe(0);
    expect(asked).toEqual(expect.arrayContaining([601, 602]));
    expect(tg.callsOf("sendMessage").map((c) => c.params["chat_id"])).toEqual([602]);
    expect(tg.failedCalls()).toEqual([]);
  });
});
