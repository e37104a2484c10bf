/** kill -9 around Confirm over SQLite (test/reliability/kill-suite.ts). */
import { sqliteTarget } from "../app-harness.js";
import { killSuite, ROUNDS } from "./kill-suite.js";

killSuite("sqlite", () => Promise.resolve(sqliteTarget()), ROUNDS);
