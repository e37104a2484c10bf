/**
 * The node arguments `npm start` runs in a checkout: its package.json's
 * `start` script, `exec node <V8 and Node flags> dist/main.js`. The memory
 * and start benches and the tests of the process spawn exactly that, so a
 * flag the project ships (the young generation's size) is measured as users
 * run it, and a baseline checkout runs with its own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const START = /^exec node((?: --[\w-]+(?:=[\w.-]+)?)*) dist\/main\.js$/;

export function startArgs(checkout: string): string[] {
  const pkg = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { scripts?: { start?: string } };
  const start = pkg.scripts?.start ?? "";
  const match = START.exec(start);
  if (!match) throw new Error(`${checkout}: the start script is not "exec node [--flags] dist/main.js": ${JSON.stringify(start)}`);
  return [...match[1]!.split(" ").filter(Boolean), "dist/main.js"];
}
