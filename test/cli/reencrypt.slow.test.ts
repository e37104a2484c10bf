/**
 * The re-encrypt command (src/cli/reencrypt.ts) run as an operator runs it:
 * a separate process configured by environment variables only, over the
 * SQLite file the bot uses.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatRepository } from "../../src/shared/chats/chat-repository.js";
import { openStore } from "../../src/platform/store/open-store.js";
import { createVault } from "../../src/shared/vault.js";
import { createLogger } from "../../src/platform/logger.js";
import { sealV1 } from "../support/vault-v1.js";

const ROOT = join(import.meta.dirname, "..", "..");
const logger = createLogger({ level: "silent" });
const API_KEY = "sk_live_reencrypt_test_0123456789abcdef";
const SECRET = "whsec_reencrypt_test_fedcba9876543210";

let dir: string;
let storageUrl: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "reencrypt-"));
  storageUrl = `sqlite://${join(dir, "bot.sqlite")}`;
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the store with the given vault keys, runs fn on the chat repository, closes. */
async function withChats<T>(key: Buffer, previousKey: Buffer | undefined, fn: (chats: ReturnType<typeof createChatRepository>) => Promise<T>): Promise<T> {
  const store = await openStore(storageUrl, { logger, purgeIntervalMs: 0 });
  try {
    return await fn(createChatRepository({ store, vault: createVault({ key, previousKey }), logger }));
  } finally {
    await store.close();
  }
}

function spawnReencrypt(env: Record<string, string>, args: string[] = []) {
  // The compiled command, as `npm run reencrypt` runs it (test/global-setup.ts builds dist/ from src/ first).
  return spawn(process.execPath, [join(ROOT, "dist", "cli", "reencrypt.js"), ...args], {
    cwd: dir, // no .env there: environment variables only
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function runReencrypt(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnReencrypt(env, args);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

function readIfThere(path: string): Buffer[] {
  try {
    return [readFileSync(path)];
  } catch {
    return [];
  }
}

/** The variables the bot runs with (loadConfig insists on them even here). */
const botVars = { BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ", SERVICE_BASE_URL: "http://127.0.0.1:9" };

describe("npm run reencrypt (key rotation)", () => {
  it("re-seals a chat linked under key A so that it opens under key B alone (no bot variables needed)", async () => {
    const keyA = randomBytes(32);
    const keyB = randomBytes(32);
    await withChats(keyA, undefined, (chats) => chats.link(777, { apiKey: API_KEY, webhookSecret: SECRET }));
    const routeBefore = (await withChats(keyA, undefined, (chats) => chats.get(777)))?.routeId;

    const result = await runReencrypt({
      STORAGE_URL: storageUrl,
      ENCRYPTION_KEY: keyB.toString("base64"),
      ENCRYPTION_KEY_PREVIOUS: keyA.toString("base64"),
    });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain("Re-encrypted 2 value(s); 0 could not be opened; 0 already under the current key.");
    expect(result.stdout + result.stderr).not.toContain(API_KEY);

    await withChats(keyB, undefined, async (chats) => {
      expect(await chats.getApiKey(777)).toBe(API_KEY);
      expect(await chats.getWebhookSecret(777)).toBe(SECRET);
      expect((await chats.get(777))?.routeId).toBe(routeBefore);
    });
    // Key A alone no longer opens anything: the values really were re-sealed.
    await withChats(keyA, undefined, async (chats) => {
      expect(await chats.getApiKey(777)).toBeUndefined();
    });
    const raw = Buffer.concat(["", "-wal"].flatMap((suffix) => readIfThere(join(dir, "bot.sqlite") + suffix)));
    expect(raw.includes(API_KEY)).toBe(false);
  });

  it("moves values of the v1 format (field not bound) to v2 under the same key", async () => {
    const key = randomBytes(32);
    await withChats(key, undefined, (chats) => chats.link(779, { apiKey: "placeholder", webhookSecret: "placeholder" }));
    const store = await openStore(storageUrl, { logger, purgeIntervalMs: 0 });
    const kv = store.namespace("chats");
    const row = (await kv.get<{ v: number; data: Record<string, unknown> }>("779"))!;
    await kv.set("779", { ...row, data: { ...row.data, apiKeySealed: sealV1(key, API_KEY, 779), webhookSecretSealed: sealV1(key, SECRET, 779) } });
    await store.close();

    const result = await runReencrypt({ STORAGE_URL: storageUrl, ENCRYPTION_KEY: key.toString("base64") });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain("Re-encrypted 2 value(s); 0 could not be opened; 0 already under the current key.");
    await withChats(key, undefined, async (chats) => {
      const record = (await chats.get(779))!;
      expect([record.apiKeySealed?.slice(0, 3), record.webhookSecretSealed?.slice(0, 3)]).toEqual(["v2.", "v2."]);
      expect(await chats.getApiKey(779)).toBe(API_KEY);
      expect(await chats.getWebhookSecret(779)).toBe(SECRET);
    });
  });

  it("reports values that open under neither key, exits 2, and leaves them as they were", async () => {
    const keyA = randomBytes(32);
    await withChats(keyA, undefined, (chats) => chats.link(778, { apiKey: API_KEY }));
    const result = await runReencrypt({
      ...botVars,
      STORAGE_URL: storageUrl,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ENCRYPTION_KEY_PREVIOUS: randomBytes(32).toString("base64"),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("Re-encrypted 0 value(s); 1 could not be opened");
    expect(result.stdout).toContain("set ENCRYPTION_KEY_PREVIOUS to the key they were sealed with and run this again");
    await withChats(keyA, undefined, async (chats) => expect(await chats.getApiKey(778)).toBe(API_KEY));
  });

  it("killed half-way (kill -9) leaves every value readable, and running it again finishes the job", async () => {
    const keyA = randomBytes(32);
    const keyB = randomBytes(32);
    const CHATS = 2_000;
    await withChats(keyA, undefined, async (chats) => {
      for (let chatId = 1; chatId <= CHATS; chatId += 1) await chats.link(chatId, { apiKey: `${API_KEY}-${chatId}` });
    });
    const rotation = { STORAGE_URL: storageUrl, ENCRYPTION_KEY: keyB.toString("base64"), ENCRYPTION_KEY_PREVIOUS: keyA.toString("base64") };

    const child = spawnReencrypt(rotation, ["--progress-every", "1"]);
    const exited = once(child, "exit");
    const seen = await new Promise<string>((resolve) => {
      let text = "";
      const read = (b: Buffer) => {
        text += b.toString();
        if (!text.includes("Progress: 100 value(s)")) return;
        // Not read any further: the command waits on its progress lines once the pipe is full, so it cannot finish before the kill.
        child.stdout.pause();
        child.stdout.off("data", read);
        resolve(text);
      };
      child.stdout.on("data", read);
    });
    expect(seen).toMatch(/^Progress: 1 value\(s\): 1 re-encrypted, 0 already under the current key, 0 could not be opened$/m);
    expect(seen).toMatch(/^Progress: 100 value\(s\): 100 re-encrypted, 0 already under the current key, 0 could not be opened$/m);
    child.kill("SIGKILL");
    const [code, signal] = (await exited) as [number | null, string | null];
    expect([code, signal]).toEqual([null, "SIGKILL"]);

    // Half-way: some values moved to key B, the others still under key A only, and with both keys every one reads.
    const underB = await withChats(keyB, undefined, async (chats) => {
      let n = 0;
      for (let chatId = 1; chatId <= CHATS; chatId += 1) if ((await chats.getApiKey(chatId)) !== undefined) n += 1;
      return n;
    });
    expect(underB).toBeGreaterThanOrEqual(100);
    expect(underB).toBeLessThan(CHATS);

    const again = await runReencrypt(rotation, ["--progress-every", "500"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Progress: 500 value(s): ");
    const done = /Re-encrypted (\d+) value\(s\); 0 could not be opened; (\d+) already under the current key\./.exec(again.stdout);
    expect(done).not.toBeNull();
    expect(Number(done![1]) + Number(done![2])).toBe(CHATS);
    expect(Number(done![2])).toBeGreaterThanOrEqual(underB);

    await withChats(keyB, undefined, async (chats) => {
      for (let chatId = 1; chatId <= CHATS; chatId += 1) expect(await chats.getApiKey(chatId)).toBe(`${API_KEY}-${chatId}`);
    });
    // A third run has nothing left to do.
    const third = await runReencrypt(rotation);
    expect(third.stdout).toContain(`Re-encrypted 0 value(s); 0 could not be opened; ${CHATS} already under the current key.`);
  }, 120_000);

  it("refuses a bad ENCRYPTION_KEY_PREVIOUS with one line naming it, without its value", async () => {
    const result = await runReencrypt({
      ...botVars,
      STORAGE_URL: storageUrl,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ENCRYPTION_KEY_PREVIOUS: "not-a-key-SECRETVALUE",
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("ENCRYPTION_KEY_PREVIOUS");
    expect(result.stderr).not.toContain("SECRETVALUE");
  });
});
