/**
 * `npm run reliability`: the kill -9 suite with many rounds (KILL_ROUNDS,
 * default 24 per flow and backend; Redis and Postgres when TEST_REDIS_URL /
 * TEST_POSTGRES_URL are set), then a table of what it counted, for
 * docs/reliability.md. The same suite runs in `npm test` with a few rounds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KillFigures } from "../testkit/kill-figures.js";


const out = (line = ""): void => void process.stdout.write(`${line}\n`);
const rounds = process.env["KILL_ROUNDS"] ?? "24";
const dir = mkdtempSync(join(tmpdir(), "reliability-"));
const figuresFile = join(dir, "figures.jsonl");
const run = spawnSync("npx", ["vitest", "run", "test/reliability"], {
  stdio: "inherit",
  env: { ...process.env, KILL_ROUNDS: rounds, RELIABILITY_OUT: figuresFile },
  // Generous: each round restarts the bot process and waits for the outcome.
  timeout: 60 * 60_000,
});
let rows: KillFigures[] = [];
try {
  rows = readFileSync(figuresFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as KillFigures);
} catch {
  // No figures: the run failed before any suite finished; its output says why.
}
rmSync(dir, { recursive: true, force: true });

out(`\nkill -9 figures (${new Date().toISOString()}, KILL_ROUNDS=${rounds}):\n`);
out("| backend | flow | kills | landed before charge / charged, card not drawn / after card | taps lost and tapped again | charges | doubled charges | lost announcements | doubled announcements |");
out("|---|---|---|---|---|---|---|---|---|");
for (const f of rows) {
  out(`| ${f.backend} | ${f.flow} | ${f.kills} | ${f.landed.beforeCharge} / ${f.landed.chargedBeforeCard} / ${f.landed.afterCard} | ${f.tapsRetried} | ${f.charges} | ${f.doubledCharges} | ${f.lostAnnouncements} | ${f.doubledAnnouncements} |`);
}
process.exit(run.status ?? 1);
