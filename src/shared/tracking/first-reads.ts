/**
 * When a process picks up many items at once (its start, or a dead process's
 * items taken over), their first reads are spread instead of all firing at
 * time 0: each keeps its own due time when it has one in the future, and the
 * overdue ones are laid out evenly, `perItemMs` apart, over at most `maxMs`.
 * A handful of items is still read at once; a thousand take `maxMs`.
 */
export interface SpreadOptions {
  perItemMs: number;
  maxMs: number;
}

export const DEFAULT_SPREAD: SpreadOptions = { perItemMs: 100, maxMs: 10_000 };

/** Delay of each key's first read, in the order of their due times. */
export function spreadFirstReads(
  items: readonly { key: string; dueAtMs?: number | undefined }[],
  nowMs: number,
  { perItemMs, maxMs }: SpreadOptions,
): Map<string, number> {
  const byDue = [...items].sort((a, b) => (a.dueAtMs ?? 0) - (b.dueAtMs ?? 0));
  const windowMs = Math.min(maxMs, byDue.length * perItemMs);
  const delays = new Map<string, number>();
  byDue.forEach(({ key, dueAtMs }, i) => {
    const slotMs = Math.floor((i * windowMs) / byDue.length);
    delays.set(key, Math.max(slotMs, (dueAtMs ?? nowMs) - nowMs));
  });
  return delays;
}
