/**
 * What the app says at start about stored secrets its keys cannot open: a
 * rotation whose ENCRYPTION_KEY_PREVIOUS was removed before `npm run
 * reencrypt` finished must be named in the log, not leave chats silently
 * reading as not connected.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatRepository } from "../src/shared/chats/chat-repository.js";
import { openStore } from "../src/platform/store/open-store.js";
import { createVault, keyIdOf } from "../src/shared/vault.js";
import { createLogger } from "../src/platform/logger.js";
import { sqliteTarget, startAppWorld, waitFor, type AppWorld, type LogLine, type StoreTarget } from "./app-harness.js";

const silent = createLogger({ level: "silent" });
const OLD_KEY = randomBytes(32);
const UNDER_OLD_KEY = [501, 502, 503];

let world: AppWorld;
let target: StoreTarget;

beforeAll(async () => {
  world = await startAppWorld();
  target = sqliteTarget();
  // Three chats linked under the old key; a fourth under the app's current key.
  const store = await openStore(target.url, { logger: silent, purgeIntervalMs: 0 });
  try {
    const old = createChatRepository({ store, vault: createVault({ key: OLD_KEY }), logger: silent });
    for (const chatId of UNDER_OLD_KEY) await old.link(chatId, { apiKey: `sk_old_${chatId}_0123456789`, webhookSecret: `whsec_old_${chatId}` });
    const current = createChatRepository({ store, vault: createVault({ key: Buffer.from(world.encryptionKey, "base64") }), logger: silent });
    await current.link(504, { apiKey: "sk_current_504_0123456789" });
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  await world?.close();
  await target?.cleanup();
});

const sealedLines = (from: number): LogLine[] => world.logs.slice(from).filter((l) => /stored secret|secrets sealed under/.test(l.msg ?? ""));

describe("stored secrets the configured keys cannot open", () => {
  it("with the previous key missing, the start log says which chats, which key, and what to do", async () => {
    const from = world.logs.length;
    const app = await world.startApp(target.url);
    const line = await waitFor(() => sealedLines(from).find((l) => l.level === 50), "the error about unreadable secrets");
    expect(line).toMatchObject({ chats: 3, values: 6, missingKeyIds: [keyIdOf(OLD_KEY)] });
    expect(line.msg).toContain("3 chat(s) hold secrets sealed under a key this process does not have");
    expect(line.msg).toContain(keyIdOf(OLD_KEY));
    expect(line.msg).toMatch(/ENCRYPTION_KEY_PREVIOUS.*npm run reencrypt/);
    await world.stopApp(app);
  });

  it("with the previous key back, nothing is unreadable and the log asks for npm run reencrypt instead", async () => {
    const from = world.logs.length;
    const app = await world.startApp(target.url, { ENCRYPTION_KEY_PREVIOUS: OLD_KEY.toString("base64") });
    const line = await waitFor(() => sealedLines(from).find((l) => l.level === 30), "the note about values under the previous key");
    expect(line).toMatchObject({ values: 6 });
    expect(line.msg).toContain("npm run reencrypt");
    await world.stopApp(app);
    expect(sealedLines(from).filter((l) => l.level >= 40)).toEqual([]);
  });
});
