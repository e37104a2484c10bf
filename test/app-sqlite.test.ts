/**
 * The app walk (test/app-walk.ts) over the default embedded store: one
 * process, SQLite, the push queue and the webhook inbox kept in the file.
 */
import { describe } from "vitest";
import { sqliteTarget } from "./app-harness.js";
import { appWalk } from "./app-walk.js";

describe("the whole app on the embedded SQLite store", () => {
  appWalk(() => Promise.resolve(sqliteTarget()));
});
