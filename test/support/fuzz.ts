/**
 * Seeds and case counts for the property/fuzz suite (test/fuzz). Every
 * property runs with a fixed seed derived from its name, so a failure in CI
 * replays exactly on a laptop; `FUZZ_SEED` overrides it to explore new ground.
 * `FUZZ_RUNS` sets the cases of a pure parser property: 10,000 in CI
 * (`.ci/run` sets it for `npm test`), 200 in a plain `npm test` so the whole
 * suite stays under a minute on two cores; slower bot-level properties scale
 * with it from their own smaller base. `npm run fuzz` runs test/fuzz with FUZZ_RUNS=100000.
 */
import fc, { type Parameters as FcParameters } from "fast-check";
import { expect } from "vitest";

/** CI's strength, and the level the bases given to `scaledRuns` refer to. */
export const CI_FUZZ_RUNS = 10_000;
/** A plain `npm test`: a fiftieth of CI's cases, same seeds (so its cases are CI's first ones). */
export const DEFAULT_FUZZ_RUNS = 200;

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Cases for a pure parser property. */
export function fuzzRuns(): number {
  return envInt("FUZZ_RUNS") ?? DEFAULT_FUZZ_RUNS;
}

/** Cases for a property whose base count is `base` at CI's level (bot-level ones are slower per case). */
export function scaledRuns(base: number): number {
  return Math.max(1, Math.round((base * fuzzRuns()) / CI_FUZZ_RUNS));
}

/**
 * Per-test time limit for fuzz suites: a safety net, not a timing assertion.
 * The default 20 s is too tight for 10,000 cases on a shared 2-core machine
 * while other suites run; it grows with FUZZ_RUNS.
 */
export function fuzzTimeoutMs(): number {
  return 120_000 * Math.max(1, fuzzRuns() / CI_FUZZ_RUNS);
}

/** FNV-1a of the name: a stable 32-bit seed per property. */
export function seedFor(name: string): number {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(name, "utf8")) {
    h ^= c;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

/**
 * fast-check parameters for the property `name`: its fixed seed (or FUZZ_SEED)
 * and `runs` cases (default: the pure-parser count).
 */
export function fuzz<T>(name: string, runs: number = fuzzRuns()): FcParameters<T> {
  return { seed: envInt("FUZZ_SEED") ?? seedFor(name), numRuns: runs };
}

/**
 * Deep equality for hot property loops: a JSON comparison (both sides are
 * plain JSON-shaped values), and vitest's `toEqual` only on a mismatch, for
 * its readable diff. `toEqual` on every case costs more than the parser.
 */
export function sameJson(actual: unknown, expected: unknown): boolean {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return true;
  expect(actual).toEqual(expected);
  return false;
}

/**
 * Any Unicode scalar value, uniformly (surrogates excluded): what `fc.string({ unit: "binary" })`
 * draws from, without its one-time cost per process (fast-check builds a lookup of all 1.1 million
 * code points on the first draw: 5–35 s on a loaded 2-core machine, paid once per test worker).
 */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Strings of any code points (the "binary" unit of fast-check, cheaply). */
export function binaryString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: anyCodePoint });
}
