/**
 * `npm run reliability`: the kill -9 suite with many rounds (KILL_ROUNDS,
 * default 24 per flow and backend; Redis and Postgres when TEST_REDIS_URL /
 * TEST_POSTGRES_URL are set), then a table per backend of what it counted, for
 * docs/reliability.md. The same suite runs in `npm test` with a few rounds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LATE_MS, type KillFigures } from "../testkit/kill-figures.js";

const out = (line = ""): void => void process.stdout.write(`${line}\n`);
const rounds = process.env["KILL_ROUNDS"] ?? "24";
const dir = mkdtempSync(join(tmpdir(), "reliability-"));
const figuresFile = join(dir, "figures.jsonl");
// The kill suites are process tests: they live in the slow suite's config.
const run = spawnSync("npx", ["vitest", "run", "--config", "vitest.slow.config.ts", "test/reliability"], {
  stdio: "inherit",
  env: { ...process.env, KILL_ROUNDS: rounds, RELIABILITY_OUT: figuresFile },
  // Generous: each round restarts the bot process and waits for the outcome.
  timeout: 60 * 60_000,
});
let rows: KillFigures[] = [];
try {
  rows = readFileSync(figuresFile, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KillFigures);
} catch {
  // No figures: the run failed before any suite finished; its output says why.
}
rmSync(dir, { recursive: true, force: true });

const backends = [...new Set(rows.map((f) => f.backend))];
out(
  `\nkill -9 figures (${new Date().toISOString()}, KILL_ROUNDS=${rounds}; late = first shown more than ${LATE_MS / 1000} s after the service's status change):`,
);
for (const backend of backends) {
  out(`\n${backend}:\n`);
  out("| flow | kills | charges | double charges | lost | late (> 30 s) | slowest announcement | doubled announcements | renewals lapsed |");
  out("|---|---|---|---|---|---|---|---|---|");
  for (const f of rows.filter((r) => r.backend === backend)) {
    out(
      `| ${f.flow} | ${f.kills} | ${f.charges} | ${f.doubledCharges} | ${f.lostAnnouncements} | ${f.lateAnnouncements} | ${(f.slowestAnnouncementMs / 1000).toFixed(1)} s | ${f.doubledAnnouncements} | ${f.flow === "keep" ? f.renewalsLapsed : "—"} |`,
    );
  }
}
out("\nWhere the kills landed (before the charge / charged, card or notice not drawn yet / after it) and taps lost and tapped again:\n");
out("| backend | flow | landed | taps lost |");
out("|---|---|---|---|");
for (const f of rows) out(`| ${f.backend} | ${f.flow} | ${f.landed.beforeCharge} / ${f.landed.chargedBeforeCard} / ${f.landed.afterCard} | ${f.tapsRetried} |`);
process.exit(run.status ?? 1);
