import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Most suites wait on loopback I/O and timers, not CPU: more workers than cores pays off.
    maxWorkers: 4,
    reporters: ["default"],
  },
});
