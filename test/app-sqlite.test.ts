/**
 * The app journey (test/app-journey.ts) over the default embedded store: one
 * process, SQLite, the push queue and the webhook inbox kept in the file.
 */
import { describe } from "vitest";
import { sqliteTarget } from "./app-harness.js";
import { appJourney } from "./app-journey.js";

describe("the whole app on the embedded SQLite store", () => {
  appJourney(() => Promise.resolve(sqliteTarget()));
});
