/** Per-request latency figures (p50/p99), each printed next to a same-run baseline. */

export interface LatencyRow {
  group: string;
  name: string;
  samples: number[];
  baseline?: string;
}

export const latencyRows: LatencyRow[] = [];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * Calls `fn(i)` one at a time (after `warmup` untimed calls) until `maxOps`
 * calls or `maxMs` have passed, timing only the awaited call itself; what
 * `prepare(i)` builds (the sender's work) is made outside the timed call.
 */
export async function measureLatency<T = undefined>(
  group: string,
  name: string,
  limits: { maxOps: number; maxMs: number; warmup?: number },
  fn: (prepared: T, i: number) => Promise<unknown>,
  options: { baseline?: string; prepare?: (i: number) => T } = {},
): Promise<void> {
  const prepare = options.prepare ?? (() => undefined as T);
  const warmup = limits.warmup ?? 100;
  for (let i = 0; i < warmup; i += 1) await fn(prepare(i), i);
  const samples: number[] = [];
  const until = performance.now() + limits.maxMs;
  for (let i = warmup; samples.length < limits.maxOps && performance.now() < until; i += 1) {
    const prepared = prepare(i);
    const started = performance.now();
    await fn(prepared, i);
    samples.push(performance.now() - started);
  }
  latencyRows.push({ group, name, samples, ...(options.baseline ? { baseline: options.baseline } : {}) });
}

export function printLatencyTable(): void {
  if (latencyRows.length === 0) return;
  const stats = new Map(
    latencyRows.map((r) => {
      const sorted = [...r.samples].sort((a, b) => a - b);
      return [r.name, { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN }];
    }),
  );
  const lines = latencyRows.map((r) => {
    const s = stats.get(r.name)!;
    const base = r.baseline ? stats.get(r.baseline) : undefined;
    const vs = base ? `p50 ${(s.p50 / base.p50).toFixed(2)}x, p99 ${(s.p99 / base.p99).toFixed(2)}x baseline` : "(baseline)";
    return [r.group, r.name, r.samples.length.toLocaleString("en"), s.p50.toFixed(3), s.p99.toFixed(3), s.max.toFixed(3), vs];
  });
  const header = ["group", "latency benchmark", "requests", "p50 ms", "p99 ms", "max ms", "vs"];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}
