import { randomBytes } from "node:crypto";
import { pino, type Logger } from "pino";
import { waitUntil } from "../../support/wait.js";

export interface CapturedLogger {
  logger: Logger;
  records(): Array<Record<string, unknown>>;
}

/** A real pino logger writing synchronously into an array. */
export function captureLogger(level = "debug"): CapturedLogger {
  const lines: string[] = [];
  const logger = pino(
    { level },
    {
      write(chunk: string) {
        for (const line of chunk.split("\n")) if (line) lines.push(line);
      },
    },
  );
  return { logger, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A prefix unique to this test run, so parallel runs on a shared server never meet. */
export function runId(): string {
  return `t${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
}

/** Waits until `check` returns true; fails after `timeoutMs` (a deadline, not a timing assertion). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  await waitUntil(check, { timeoutMs });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
