import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The slow suite: tests of a process of their own (a bot killed with -9, its store cut under it, the build and CLIs),
// tests that wait out a library's own timers (BullMQ's 30 s job lock), and load-shaped and sweep tests whose small
// case `npm test` keeps; run by CI beside `npm test`.
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["test/**/*.slow.test.ts"], exclude: ["**/node_modules/**"] },
});
