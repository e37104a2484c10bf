/** kill -9 around Confirm over Redis (test/reliability/kill-suite.ts). */
import { it } from "vitest";
import { redisTarget } from "../app-harness.js";
import { killSuite, SERVER_ROUNDS } from "./kill-suite.js";

const redisUrl = process.env["TEST_REDIS_URL"];
if (redisUrl) killSuite("redis", () => redisTarget(redisUrl), SERVER_ROUNDS);
else {
  console.log("skipping kill -9 on Redis: TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)");
  it.skip(`kill -9 on Redis: TEST_REDIS_URL is not set`, () => undefined);
}
