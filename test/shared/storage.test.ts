/**
 * On Postgres the push queue and the webhook inbox run inside the process:
 * a second bot process on the same store refuses to start, with a message
 * saying why and what to do; the lock dies with its holder (even kill -9).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStorage, StoreInUseError, type Storage } from "../../src/shared/storage.js";
import { createPgPool } from "../../src/platform/store/postgres-store.js";
import { captureLogger, eventually, runId } from "../platform/store/helpers.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const pgUrl = process.env["TEST_POSTGRES_URL"] || undefined;
if (!pgUrl)
  console.log(
    "skipping the one-process-per-Postgres-store tests: TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)",
  );
const table = `one_proc_${runId()}`;
const log = captureLogger();

function storeUrl(): string {
  const parsed = new URL(pgUrl!);
  parsed.searchParams.set("table", table);
  return parsed.toString();
}

const open = (storageUrl: string, storagePrefix?: string): Promise<Storage> =>
  createStorage({
    config: { storageUrl, encryptionKey: randomBytes(32), ...(storagePrefix === undefined ? {} : { storagePrefix }) },
    logger: log.logger,
    purgeIntervalMs: 0,
  });

afterAll(async () => {
  if (!pgUrl) return;
  const pool = createPgPool(pgUrl);
  try {
    await pool.query(`DROP TABLE IF EXISTS public.${table}`);
    await pool.query(`DROP TABLE IF EXISTS public.${table}_leases`);
  } finally {
    await pool.end();
  }
});

describe.skipIf(!pgUrl)("one bot process per Postgres store", () => {
  it("refuses a second process on the same store with a clear message, lets another STORAGE_PREFIX run, and frees the store when the first stops", async () => {
    const first = await open(storeUrl());
    try {
      const second = open(storeUrl());
      await expect(second).rejects.toBeInstanceOf(StoreInUseError);
      await expect(second).rejects.toThrow(/another bot process already runs on this Postgres store.*Stop the other process first.*STORAGE_PREFIX.*redis:\/\//);
      const otherDeployment = await open(storeUrl(), "other-bot");
      await otherDeployment.close();
    } finally {
      await first.close();
    }
    const after = await open(storeUrl());
    await after.close();
  });

  it("frees the store the moment its holder is killed with SIGKILL", async () => {
    // Assembles the storage as the app does (from the dist/ of the global setup), says "held", and stays until killed.
    const hold = `const { randomBytes } = await import("node:crypto");
const { pino } = await import("pino");
const { createStorage } = await import("./dist/shared/storage.js");
await createStorage({ config: { storageUrl: process.argv[1], encryptionKey: randomBytes(32) }, logger: pino({ level: "warn" }, pino.destination(2)), purgeIntervalMs: 0 });
process.stdout.write("held\\n");
setInterval(() => undefined, 60_000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", hold, storeUrl()], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b.toString()));
    child.stderr.on("data", (b: Buffer) => (output += b.toString()));
    const exited = new Promise((done) => child.on("exit", done));
    try {
      await eventually(() => output.includes("held") || child.exitCode !== null, 60_000);
      expect(output).toBe("held\n");
      await expect(open(storeUrl())).rejects.toBeInstanceOf(StoreInUseError);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    // Postgres ends the killed session (its socket closed) and its lock with it.
    let mine: Storage | undefined;
    await eventually(async () => {
      mine = await open(storeUrl()).catch((error: unknown) => {
        if (error instanceof StoreInUseError) return undefined;
        throw error;
      });
      return mine !== undefined;
    }, 20_000);
    await mine?.close();
  }, 90_000);
});

describe("SQLite", () => {
  it("takes no such lock: one file on one host, two storages on it both open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "one-proc-"));
    try {
      const url = `sqlite://${join(dir, "bot.sqlite")}`;
      const a = await open(url);
      const b = await open(url);
      await b.close();
      await a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
