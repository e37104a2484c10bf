/**
 * Small, bounded benchmarks; each figure is printed next to a baseline
 * measured in the same run on the same machine. `npm run bench`.
 *
 * - pricing: PricingCache.get() hot path vs a raw client getPricing() over
 *   loopback against the simulator (what every quote would cost uncached).
 * - money: formatDecimal over exact strings vs Intl.NumberFormat.format on
 *   doubles (the imprecise thing it replaces), and the parsers.
 */
import { pino } from "pino";
import { createPricingCache } from "../src/core/pricing-cache.js";
import { createServiceClient } from "../src/core/service/create-service-client.js";
import { formatDecimal, parseEnergyAmount, sunToTrx, trxToSun } from "../src/core/money.js";
import { startSimulator } from "../src/simulator/index.js";

interface Row {
  group: string;
  name: string;
  ops: number;
  ms: number;
  baseline?: string;
}

const rows: Row[] = [];

/** Runs `fn` `ops` times (after a short warm-up) and records the wall time. */
function measureSync(group: string, name: string, ops: number, fn: (i: number) => unknown, baseline?: string): void {
  for (let i = 0; i < Math.min(1000, ops); i += 1) fn(i);
  const started = performance.now();
  let sink = 0;
  for (let i = 0; i < ops; i += 1) if (fn(i) !== undefined) sink += 1;
  const ms = performance.now() - started;
  if (sink < 0) console.log(sink); // keeps the results alive
  rows.push({ group, name, ops, ms, ...(baseline ? { baseline } : {}) });
}

/** Runs `ops` async calls with `concurrency` in flight and records the wall time. */
async function measureAsync(
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

async function benchPricing(): Promise<void> {
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000 });
  const logger = pino({ level: "silent" });
  const client = createServiceClient({ baseUrl: sim.baseUrl, logger });
  try {
    const cache = createPricingCache({ load: () => client.getPricing(), logger });
    await measureAsync("pricing", "client.getPricing() over loopback", 2_000, 16, () => client.getPricing());
    await measureAsync("pricing", "pricingCache.get() (hot)", 2_000_000, 16, () => cache.get(), "client.getPricing() over loopback");
  } finally {
    await client.close();
    await sim.stop();
  }
}

function benchMoney(): void {
  const n = 300_000;
  const sunValues = Array.from({ length: 1024 }, (_, i) => BigInt(i) * 987_654_321n + 123_456n);
  const trxStrings = sunValues.map((s) => sunToTrx(s));
  const doubles = sunValues.map((s) => Number(s) / 1e6);
  const intlEn = new Intl.NumberFormat("en", { maximumFractionDigits: 6 });
  const intlRu = new Intl.NumberFormat("ru", { maximumFractionDigits: 6 });

  measureSync("money", "Intl.NumberFormat(en).format(double)", n, (i) => intlEn.format(doubles[i & 1023]!));
  measureSync("money", "formatDecimal(string, en)", n, (i) => formatDecimal(trxStrings[i & 1023]!, "en"), "Intl.NumberFormat(en).format(double)");
  measureSync("money", "Intl.NumberFormat(ru).format(double)", n, (i) => intlRu.format(doubles[i & 1023]!));
  measureSync("money", "formatDecimal(string, ru)", n, (i) => formatDecimal(trxStrings[i & 1023]!, "ru"), "Intl.NumberFormat(ru).format(double)");
  measureSync("money", "(x / 1e6).toString() (imprecise)", n, (i) => (Number(sunValues[i & 1023]!) / 1e6).toString());
  measureSync("money", "sunToTrx(bigint)", n, (i) => sunToTrx(sunValues[i & 1023]!), "(x / 1e6).toString() (imprecise)");
  measureSync("money", "Number.parseFloat(text)", n, (i) => Number.parseFloat(trxStrings[i & 1023]!));
  measureSync("money", "trxToSun(text)", n, (i) => trxToSun(trxStrings[i & 1023]!), "Number.parseFloat(text)");
  const typed = ["100000", "100k", "1.5k", "100,000", "100 000", "65_000", "abc", "-5"];
  measureSync("money", "Number(text)", n, (i) => Number(typed[i & 7]!));
  measureSync("money", "parseEnergyAmount(text)", n, (i) => parseEnergyAmount(typed[i & 7]!), "Number(text)");

  // The reason the baseline is not used: doubles lose sun beyond 2^53 / 10^6 TRX precision.
  const big = 123_456_789_012_345_678n;
  console.log(`precision check: Intl ${intlEn.format(Number(big) / 1e6)}  vs  formatDecimal ${formatDecimal(sunToTrx(big), "en")}`);
}

function printTable(): void {
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

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  benchMoney();
  await benchPricing();
  printTable();
}

await main();
