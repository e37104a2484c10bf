/** kill -9 around Confirm over Postgres (test/reliability/kill-suite.ts). */
import { it } from "vitest";
import { postgresTarget } from "../app-harness.js";
import { killSuite, SERVER_ROUNDS } from "./kill-suite.js";

const postgresUrl = process.env["TEST_POSTGRES_URL"];
if (postgresUrl) killSuite("postgres", () => Promise.resolve(postgresTarget(postgresUrl)), SERVER_ROUNDS);
else {
  console.log("skipping kill -9 on Postgres: TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)");
  it.skip(`kill -9 on Postgres: TEST_POSTGRES_URL is not set`, () => undefined);
}
