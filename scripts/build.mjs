// @ts-check
/**
 * `npm run build`: compiles src/ into dist/ with tsc (tsconfig.build.json) and
 * records a fingerprint of what went in (dist/.build-fingerprint).
 * `--if-stale` (npm start's prestart, npm run reencrypt): runs tsc only when
 * that fingerprint differs from the inputs' — no build yet, pulled or edited
 * sources, another tsconfig or lockfile, or dist/ written after the
 * fingerprint by something else — so a start after an unchanged checkout runs
 * no compiler. Sources are compared by content, not mtime: a checkout or a
 * copy that keeps or resets timestamps cannot fool it.
 * Plain JavaScript: it must run before anything is compiled.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";

const root = process.cwd(); // npm runs scripts in the package root
const ifStale = process.argv.includes("--if-stale");
const project = "tsconfig.build.json";
const fingerprintFile = join(root, "dist", ".build-fingerprint");
const inputs = ["src", "tsconfig.json", project, "package-lock.json"];

/** @param {string} path @returns {string[]} */
function filesUnder(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function fingerprint() {
  const hash = createHash("sha256");
  const files = inputs
    .flatMap(filesUnder)
    .map((f) => f.split(sep).join("/"))
    .sort();
  for (const file of files) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** Written after the fingerprint: something compiled into dist/ without this script (a bare `tsc`). */
function touchedSince(/** @type {number} */ stampMs) {
  return filesUnder("dist").some((f) => statSync(join(root, f)).mtimeMs > stampMs);
}

const current = fingerprint();
/** Why dist/ must be compiled, or undefined when it matches the sources. */
function staleReason() {
  if (!existsSync(fingerprintFile)) return "no build yet";
  if (readFileSync(fingerprintFile, "utf8").trim() !== current) return "sources changed since the last build";
  if (touchedSince(statSync(fingerprintFile).mtimeMs)) return "dist/ was written by another build";
  return undefined;
}
const reason = staleReason();
if (ifStale && reason === undefined) process.exit(0);

let tsc;
try {
  tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
} catch {
  process.stderr.write(
    "build: dist/ is missing or older than src/, and TypeScript is not installed: run `npm ci` (with dev dependencies), then `npm run build`.\n",
  );
  process.exit(1);
}
if (ifStale) process.stderr.write(`build: compiling src/ into dist/ (${String(reason)})\n`);
// A failed build must not leave an old fingerprint that a later revert would match.
rmSync(fingerprintFile, { force: true });
const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: root, stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(fingerprintFile, `${current}\n`);
