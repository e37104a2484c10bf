/** Throughput figures (ops/s), each printed next to a same-run baseline. */

export interface Row {
  group: string;
  name: string;
  ops: number;
  ms: number;
  baseline?: string;
}

export const rows: Row[] = [];

/** Runs `fn` `ops` times (after a short warm-up) and records the wall time. */
export function measureSync(group: string, name: string, ops: number, fn: (i: number) => unknown, baseline?: string): void {
  for (let i = 0; i < Math.min(1000, ops); i += 1) fn(i);
  const started = performance.now();
  let sink = 0;
  for (let i = 0; i < ops; i += 1) if (fn(i) !== undefined) sink += 1;
  const ms = performance.now() - started;
  if (sink < 0) console.log(sink); // keeps the results alive
  rows.push({ group, name, ops, ms, ...(baseline ? { baseline } : {}) });
}

/** Runs `ops` async calls with `concurrency` in flight and records the wall time. */
export async function measureAsync(
  group: string,
  name: string,
  ops: number,
  concurrency: number,
  fn: () => Promise<unknown>,
  baseline?: string,
): Promise<void> {
  for (let i = 0; i < Math.min(50, ops); i += 1) await fn();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        next += 1;
        await fn();
      }
    }),
  );
  rows.push({ group, name, ops, ms: performance.now() - started, ...(baseline ? { baseline } : {}) });
}

export function printThroughputTable(): void {
  const rate = (r: Row) => (r.ops / r.ms) * 1000;
  const byName = new Map(rows.map((r) => [r.name, r]));
  const lines = rows.map((r) => {
    const base = r.baseline ? byName.get(r.baseline) : undefined;
    const ratio = base ? `${(rate(r) / rate(base)).toFixed(2)}x baseline` : "(baseline)";
    return [r.group, r.name, r.ops.toLocaleString("en"), r.ms.toFixed(1), Math.round(rate(r)).toLocaleString("en"), ratio];
  });
  const header = ["group", "benchmark", "ops", "ms", "ops/s", "vs"];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}
