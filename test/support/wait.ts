/**
 * The one way tests wait for a state: `vi.waitFor` retrying `read` until it
 * yields something other than `undefined`/`false`. The timeout is a safety net
 * naming what never happened, never a timed assertion.
 */
import { vi } from "vitest";

export interface WaitOptions {
  /** What is awaited, for the error when it never comes. */
  what?: string;
  timeoutMs?: number;
  intervalMs?: number;
}

export async function waitUntil<T>(read: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions = {}): Promise<T> {
  const { what = "a condition", timeoutMs = 45_000, intervalMs = 20 } = options;
  return vi.waitFor(
    async () => {
      const value = await read();
      if (value === undefined || value === false) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}
