import { createHash } from "node:crypto";

/** Rule 6 windows of service-api.md section 4. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const RESERVATION_MS = 10 * 60 * 1000;

interface Entry {
  bodyHash: string;
  state: "in_flight" | "done";
  startedAt: number;
  completedAt: number;
  result: unknown;
}

export type Reservation = { kind: "reserved" } | { kind: "replay"; result: unknown } | { kind: "in_progress" } | { kind: "key_reuse" };

/** JSON with sorted object keys, so formatting and key order do not make bodies differ. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export function bodyHash(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

/**
 * Idempotency keys, scoped per account. A key is reserved while its first
 * request runs, holds the finished result for 24 h, and is released when the
 * request ends in a 402 (rule 5).
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  reserve(scope: string, key: string, hash: string): Reservation {
    const id = `${scope}\n${key}`;
    const now = this.now();
    const e = this.entries.get(id);
    const live = e && (e.state === "done" ? now - e.completedAt < REPLAY_WINDOW_MS : now - e.startedAt < RESERVATION_MS);
    if (e && live) {
      // While in flight the key is reserved whatever the body; the final answer comes after.
      if (e.state === "in_flight") return { kind: "in_progress" };
      return e.bodyHash === hash ? { kind: "replay", result: e.result } : { kind: "key_reuse" };
    }
    this.entries.set(id, { bodyHash: hash, state: "in_flight", startedAt: now, completedAt: 0, result: undefined });
    return { kind: "reserved" };
  }

  complete(scope: string, key: string, result: unknown): void {
    const e = this.entries.get(`${scope}\n${key}`);
    if (!e) return;
    e.state = "done";
    e.completedAt = this.now();
    e.result = result;
  }

  release(scope: string, key: string): void {
    this.entries.delete(`${scope}\n${key}`);
  }
}
