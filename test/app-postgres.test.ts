/**
 * The README's `STORAGE_URL=postgres://…`, at the app level: the same journey
 * as on SQLite with every record (push queue and webhook inbox included) in
 * a Postgres table of this run's own, dropped afterwards.
 */
import { describe } from "vitest";
import { postgresTarget } from "./app-harness.js";
import { appJourney } from "./app-journey.js";

const POSTGRES_URL = process.env["TEST_POSTGRES_URL"];
if (!POSTGRES_URL)
  console.log("skipping the app-on-Postgres tests: TEST_POSTGRES_URL is not set (e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)");

describe.skipIf(!POSTGRES_URL)("the whole app on Postgres (TEST_POSTGRES_URL)", () => {
  appJourney(() => Promise.resolve(postgresTarget(POSTGRES_URL!)));
});
