/**
 * Ship what is tested: the image runs the Node the suite runs on (same major
 * and minor), installs dependencies once (better-sqlite3 compiles once),
 * builds, prunes the dev dependencies, and the runtime copies exactly that
 * pruned node_modules and dist. Docker itself is not needed: the Dockerfile is read.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const text = readFileSync(join(import.meta.dirname, "..", "Dockerfile"), "utf8");
// Continuation lines joined, comments dropped: one instruction per entry.
const instructions = text
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"));

interface Stage {
  name: string;
  base: string;
  lines: string[];
}

const stages: Stage[] = [];
for (const line of instructions) {
  const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
  if (from) stages.push({ base: from[1]!, name: from[2] ?? String(stages.length), lines: [] });
  else stages.at(-1)?.lines.push(line);
}
const stage = (name: string): Stage | undefined => stages.find((s) => s.name === name);
/** A stage's own lines after those of the stages it is built FROM. */
const linesOf = (s: Stage): string[] => [...(stage(s.base) ? linesOf(stage(s.base)!) : []), ...s.lines];

describe("the Docker image", () => {
  it("runs the Node version the tests run on (same major.minor)", () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)[.-]/m.exec(text);
    expect(image, "ARG NODE_IMAGE=node:<major>.<minor>…").not.toBeNull();
    const [major, minor] = process.versions.node.split(".");
    expect(`${image![1]}.${image![2]}`).toBe(`${major}.${minor}`);
    expect(stages.every((s) => s.base === "${NODE_IMAGE}" || stage(s.base) !== undefined)).toBe(true);
  });

  it("installs dependencies with one full npm ci, builds, then prunes the dev dependencies", () => {
    const ci = instructions.filter((l) => /\bnpm ci\b/.test(l));
    expect(ci).toHaveLength(1);
    expect(ci[0]).not.toMatch(/--omit|--production/);
    const runtime = stages.at(-1)!;
    const copied = runtime.lines.find((l) => /^COPY --from=\S+ \/app\/node_modules/.test(l));
    const from = stage(/--from=(\S+)/.exec(copied ?? "")?.[1] ?? "");
    expect(from, "the runtime copies node_modules from a build stage").toBeDefined();
    const steps = linesOf(from!).join("\n");
    const order = ["npm ci", "npm run build", "npm prune --omit=dev"].map((step) => steps.indexOf(step));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(runtime.lines).toContain(`COPY --from=${from!.name} /app/dist ./dist`);
    expect(runtime.lines.some((l) => /\bnpm (ci|install)\b/.test(l))).toBe(false);
  });

  it("runs the same node command as npm start, flags included", () => {
    const cmd = stages.at(-1)!.lines.find((l) => l.startsWith("CMD "));
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: { start: string } };
    expect(`exec ${(JSON.parse(cmd!.slice(4)) as string[]).join(" ")}`).toBe(pkg.scripts.start);
  });

  it("ships the chart font the statements render with, since the slim image has no system fonts", () => {
    expect(stages.at(-1)!.lines).toContain("COPY assets ./assets");
    expect(readFileSync(join(import.meta.dirname, "..", ".dockerignore"), "utf8").split("\n")).toContain("!assets/");
  });
});
