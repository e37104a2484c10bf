import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // `npm run test:slow` (vitest.slow.config.ts) runs these; CI runs both.
    exclude: ["test/**/*.slow.test.ts", "**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // Bounds for a loaded 2-core machine (scripts/suite-under-load.sh: 8 workers beside a CPU hog), where a test
    // that takes 2 s alone can take 20 and one wait of it 30 (test/support/wait.ts); a test that hangs still fails, only later.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own default (1 s) is a timed assertion on a loaded machine; this is only its safety net.
    expect: { poll: { timeout: 30_000 } },
    pool: "forks",
    // Files share a worker's module graph instead of importing src/ and its dependencies anew
    // per file (most of the suite's time otherwise). Safe because nothing in src/ or test/ keeps
    // module-level state or changes process-wide state without restoring it: no singletons
    // (docs/CONTRIBUTING.md), no vi.mock or stubbed globals, the one fake clock
    // (test/bot/tracking.test.ts) restored in a finally, and env only read.
    isolate: false,
    // Most suites wait on loopback I/O and timers, not CPU: more workers than cores pays off. On 2 cores,
    // idle: 4 workers 109 s, 6 workers 92 s, 8 workers 82 s (each worker imports the graph once more).
    maxWorkers: 8,
    reporters: ["default"],
  },
});
