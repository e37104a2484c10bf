/**
 * The heavy modules a process on SQLite does not need are never loaded: the
 * app built over a SQLite store (as src/main.ts builds it, from the compiled
 * dist/ of the global setup) loads neither BullMQ, nor a Redis or Postgres
 * client, nor tronweb (loaded on the first address check instead).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadedModules } from "./support/loaded-modules.js";

const ROOT = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "lazy-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const packageOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

describe("modules loaded by an app on SQLite", () => {
  // A child process loading the whole app: on a loaded 2-core machine that outlives the default
  // 20 s; the budget is the child's own (60 s, test/support/loaded-modules.ts), a safety net only.
  it("include grammY and better-sqlite3 but not BullMQ, Redis, Postgres, tronweb or the chart renderer", { timeout: 70_000 }, async () => {
    const env = {
      BOT_TOKEN: `123456:${randomBytes(26).toString("base64url")}`,
      SERVICE_BASE_URL: "http://127.0.0.1:9",
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      STORAGE_URL: `sqlite://${join(dir, "bot.sqlite")}`,
      HTTP_PORT: "0",
    };
    const script = `const { createApp } = await import("./dist/app.js");
const { parseConfig } = await import("./dist/config.js");
const { createLogger } = await import("./dist/platform/logger.js");
const app = await createApp({ config: parseConfig(process.env), logger: createLogger({ level: "silent" }), overrides: { botInfo: { id: 123456, is_bot: true, first_name: "Bot", username: "lazy_bot", can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: true, can_connect_to_business: false, has_main_web_app: false } } });
await app.stop();`;
    const packages = new Set((await loadedModules(script, { cwd: ROOT, env })).map(packageOf));
    expect(packages).toContain("grammy");
    expect(packages).toContain("better-sqlite3");
    for (const heavy of ["bullmq", "ioredis", "@keyv/redis", "@redis/client", "@keyv/postgres", "pg", "tronweb", "echarts", "@resvg/resvg-js"])
      expect(packages).not.toContain(heavy);
  });
});
