/**
 * scripts/build.mjs, the build behind `npm run build` and `npm start`'s
 * prestart (`--if-stale`), on a two-module project in a temporary directory
 * (the real node_modules linked in): tsc runs when there is no build yet or
 * an input changed, and not at all when dist/ matches the sources.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts", "build.mjs");
let dir: string;

function build(...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: "utf8" });
  return { status: r.status, stderr: r.stderr + r.stdout };
}

/** Identity of the compiled file: a rewrite by tsc changes its mtime (ns) even with equal contents. */
function stamp(file: string): bigint {
  return statSync(join(dir, "dist", file), { bigint: true }).mtimeNs;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "build-script-"));
  mkdirSync(join(dir, "src"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tiny", type: "module", private: true }));
  // No standard library, only the global types tsc insists on: each tsc run then costs little more than loading
  // TypeScript (about half the CPU of lib ES2022, a quarter of the default lib with the DOM).
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", noLib: true, module: "NodeNext", strict: true, types: [], skipLibCheck: true, noEmit: true },
      include: ["src"],
    }),
  );
  writeFileSync(
    join(dir, "src", "globals.d.ts"),
    ["Array<T>", "Boolean", "CallableFunction", "Function", "IArguments", "NewableFunction", "Number", "Object", "RegExp", "String"]
      .map((name) => `interface ${name} {}\n`)
      .join(""),
  );
  writeFileSync(
    join(dir, "tsconfig.build.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: false, rootDir: "src", outDir: "dist" }, include: ["src"] }),
  );
  writeFileSync(join(dir, "src", "a.ts"), "export const a: number = 1;\n");
  writeFileSync(join(dir, "src", "b.ts"), 'import { a } from "./a.js";\nexport const b = a + 1;\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Each tsc run takes seconds on a busy machine.
describe("scripts/build.mjs", { timeout: 120_000 }, () => {
  it("--if-stale compiles when there is no build yet, then not again while the sources are unchanged", () => {
    const first = build("--if-stale");
    expect(first.status).toBe(0);
    expect(first.stderr).toContain("build: compiling src/ into dist/ (no build yet)");
    expect(readFileSync(join(dir, "dist", "b.js"), "utf8")).toContain("a + 1");
    const before = [stamp("a.js"), stamp("b.js")];

    const second = build("--if-stale");
    expect(second.status).toBe(0);
    expect(second.stderr).toBe("");
    expect([stamp("a.js"), stamp("b.js")]).toEqual(before);
  });

  it("--if-stale compiles again after a source changed", () => {
    writeFileSync(join(dir, "src", "a.ts"), "export const a: number = 41;\n");
    const changed = build("--if-stale");
    expect(changed.status).toBe(0);
    expect(changed.stderr).toContain("build: compiling src/ into dist/ (sources changed since the last build)");
    expect(readFileSync(join(dir, "dist", "a.js"), "utf8")).toContain("41");
    expect(build("--if-stale").stderr).toBe("");
  });

  it("a failed build leaves no fingerprint, so the next start tries again", () => {
    writeFileSync(join(dir, "src", "a.ts"), "export const a: number = 'not a number';\n");
    expect(build("--if-stale").status).not.toBe(0);
    writeFileSync(join(dir, "src", "a.ts"), "export const a: number = 41;\n");
    const retried = build("--if-stale");
    expect(retried.status).toBe(0);
    expect(retried.stderr).toContain("no build yet");
  });

  it("--if-stale compiles when dist/ was written after the fingerprint (a bare tsc of other sources)", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "dist", "b.js"), later, later);
    const rebuilt = build("--if-stale");
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stderr).toContain("dist/ was written by another build");
  });

  it("without --if-stale (npm run build) it always compiles", () => {
    const before = stamp("a.js");
    expect(build().status).toBe(0);
    expect(stamp("a.js")).not.toBe(before);
  });
});
