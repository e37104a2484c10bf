/** kill -9 around Confirm over SQLite, two rounds per flow (test/reliability/kill-suite.ts); `npm test` runs one. */
import { sqliteTarget } from "../app-harness.js";
import { killSuite, SLOW_ROUNDS } from "./kill-suite.js";

killSuite("sqlite", () => Promise.resolve(sqliteTarget()), SLOW_ROUNDS);
