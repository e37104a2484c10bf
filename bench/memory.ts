/**
 * Memory and start with a seeded store: the app as `npm start` runs it
 * (`node [its flags] dist/main.js`, start-command.ts) over an empty
 * SQLite store and over one seeded with linked chats and tracked orders
 * (`memory-seed.ts`), against the simulator and the fake Bot API, next to a
 * bare grammY process (and, with BENCH_MEMORY_BASELINE=<dir of another
 * checkout, built>, that checkout's `dist/main.js` on the same stores).
 * Each process runs until its RSS has plateaued: no sample above the level it
 * last grew to by more than 1% for `plateauSeconds`, or `capSeconds` after its
 * first getUpdates (then its line says it was still rising). Per process:
 * spawn to first getUpdates, RSS then, the plateau (the highest RSS over the
 * last `plateauSeconds`) and when it was reached, peak RSS (VmHWM), from
 * /proc/<pid>/status; and the longest event-loop stall after the first
 * getUpdates, from a preloaded probe.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "../testkit/simulator/index.js";
import { startFakeTelegram, type FakeTelegram } from "../testkit/fake-telegram/fake-telegram.js";
import { seedStore } from "./memory-seed.js";
import { printGoal, summarize } from "./rounds.js";
import { startArgs } from "../testkit/start-command.js";
import { BARE_BOT } from "./start.js";

const ROOT = join(import.meta.dirname, "..");
/**
 * Preloaded into each measured process (`node --import`): every 200 ms, the
 * longest event-loop stall since the last line, on stderr.
 */
const PROBE_SOURCE = `import { monitorEventLoopDelay } from "node:perf_hooks";
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
setInterval(() => {
  process.stderr.write("loop-probe " + JSON.stringify({ at: Date.now(), maxMs: histogram.max / 1e6 }) + "\\n");
  histogram.reset();
}, 200).unref();`;
const PROBE = `data:text/javascript,${encodeURIComponent(PROBE_SOURCE)}`;
const MB = 1024 * 1024;

interface Sample {
  rssAtPollMb: number;
  peakMb: number;
  /** The highest RSS over the last plateau window (the whole run, if capped). */
  plateauMb: number;
  /** Seconds after the first getUpdates of the last growth by more than 1%. */
  plateauAtS: number;
  /** Still growing when the cap ended it. */
  capped: boolean;
  /** Infinity: no getUpdates within the time limit (then the figures are taken at that limit). */
  firstPollS: number;
  /** Longest event-loop stall after the first getUpdates. */
  loopMaxMs: number;
}

function status(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Window {
  plateauSeconds: number;
  capSeconds: number;
}

/** Runs one process until its RSS has plateaued (or the cap) after its first getUpdates, and stops it. */
async function measure(tg: FakeTelegram, cwd: string, args: string[], env: Record<string, string>, window: Window, timeoutMs: number): Promise<Sample> {
  const polls = tg.callsOf("getUpdates").length;
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", PROBE, ...args], {
    cwd,
    env: { PATH: process.env["PATH"] ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const stalls: { at: number; maxMs: number }[] = [];
  let partial = "";
  child.stderr.on("data", (b: Buffer) => {
    const lines = (partial + b.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("loop-probe ")) stalls.push(JSON.parse(line.slice(11)) as { at: number; maxMs: number });
      else stderr += `${line}\n`;
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const pid = child.pid!;
  try {
    let firstAt: number | undefined;
    let rssAtPoll = Number.NaN;
    for (;;) {
      const first = tg.callsOf("getUpdates")[polls];
      if (first) {
        firstAt = first.at;
        rssAtPoll = status(pid)?.rss ?? Number.NaN;
        break;
      }
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited before polling: ${stderr}`);
      // Still not polling: measured as it is, its start recorded as "over the limit".
      if (Date.now() - started > timeoutMs) break;
      await sleep(5);
    }
    const from = firstAt ?? Date.now();
    let level = Number.isFinite(rssAtPoll) ? rssAtPoll : 0;
    let grewAt = from;
    let recent: { at: number; rss: number }[] = [];
    let capped = false;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited while measured: ${stderr}`);
      const now = Date.now();
      const rss = status(pid)?.rss ?? Number.NaN;
      recent.push({ at: now, rss });
      if (rss > level * 1.01) {
        level = rss;
        grewAt = now;
      }
      recent = recent.filter((r) => r.at >= now - window.plateauSeconds * 1000);
      if (now - grewAt >= window.plateauSeconds * 1000) break;
      if (now - from >= window.capSeconds * 1000) {
        capped = true;
        break;
      }
      await sleep(250);
    }
    const end = status(pid);
    if (!end) throw new Error(`${args.join(" ")}: /proc/${pid}/status unreadable`);
    // A probe line is written after the stall it reports; one beginning before the first poll is start-up's.
    const after = stalls.filter((s) => s.at - s.maxMs >= (firstAt ?? started));
    return {
      firstPollS: firstAt === undefined ? Number.POSITIVE_INFINITY : (firstAt - started) / 1000,
      rssAtPollMb: rssAtPoll / MB,
      peakMb: end.hwm / MB,
      plateauMb: Math.max(...recent.map((r) => r.rss)) / MB,
      plateauAtS: (grewAt - from) / 1000,
      capped,
      loopMaxMs: Math.max(0, ...after.map((s) => s.maxMs)),
    };
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

function buildIfStale(cwd: string): void {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd, stdio: "ignore" });
}

export interface MemoryBenchOptions {
  rounds: number;
  /** RSS has plateaued when it has not grown by more than 1% for this long. */
  plateauSeconds: number;
  /** The most seconds measured after the first getUpdates, plateau or not. */
  capSeconds: number;
  chats: number;
  items: number;
  timeoutMs: number;
  /** A checkout of other code (main), measured the same way; built if stale. */
  baselineDir?: string | undefined;
}

export async function benchMemory(options: MemoryBenchOptions): Promise<void> {
  buildIfStale(ROOT);
  if (options.baselineDir) buildIfStale(options.baselineDir);
  const dir = mkdtempSync(join(tmpdir(), "bench-memory-"));
  // Orders stay pending while measured: the tracker keeps polling all of them.
  const sim = await startSimulator({ rateLimitPerSecond: 1_000_000, orderStepMs: 24 * 3_600_000 });
  const tg = await startFakeTelegram();
  const encryptionKey = randomBytes(32).toString("base64");
  const seeded = join(dir, "seeded.sqlite");
  const results = new Map<string, Sample[]>();
  const add = (label: string, sample: Sample) => results.set(label, [...(results.get(label) ?? []), sample]);
  try {
    const seedSeconds = await seedStore({ file: seeded, chats: options.chats, items: options.items, encryptionKey, sim });
    console.log(
      `\nmemory: seeded ${options.chats.toLocaleString("en")} linked chats and ${options.items.toLocaleString("en")} tracked orders in ${seedSeconds.toFixed(1)} s`,
    );
    const env = { BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot };
    const appEnv = (file: string) => ({
      ...env,
      SERVICE_BASE_URL: sim.baseUrl,
      ENCRYPTION_KEY: encryptionKey,
      STORAGE_URL: `sqlite://${file}`,
      HTTP_HOST: "127.0.0.1",
      HTTP_PORT: "0",
      LOG_LEVEL: "warn",
    });
    const codes: [string, string][] = [["this code", ROOT]];
    if (options.baselineDir) codes.unshift(["baseline code", options.baselineDir]);
    for (let round = 0; round < options.rounds; round += 1) {
      const window = { plateauSeconds: options.plateauSeconds, capSeconds: options.capSeconds };
      add("bare grammY process", await measure(tg, ROOT, ["--input-type=module", "-e", BARE_BOT], env, window, options.timeoutMs));
      for (const [name, cwd] of codes) {
        const tag = `${round}-${name.replace(/\W/g, "")}`;
        const empty = join(dir, `empty-${tag}.sqlite`);
        add(`${name}, empty store`, await measure(tg, cwd, startArgs(cwd), appEnv(empty), window, options.timeoutMs));
        const copy = join(dir, `seeded-${tag}.sqlite`);
        copyFileSync(seeded, copy);
        add(`${name}, seeded store`, await measure(tg, cwd, startArgs(cwd), appEnv(copy), window, options.timeoutMs));
        rmSync(copy, { force: true });
      }
    }
  } finally {
    await Promise.all([tg.close(), sim.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  printMemory(results, options);
}

function printMemory(results: Map<string, Sample[]>, options: MemoryBenchOptions): void {
  console.log(
    `memory: ${options.rounds} rounds, each until RSS has not grown by more than 1% for ${options.plateauSeconds} s (at most ${options.capSeconds} s after the first getUpdates), SQLite; median (min–max)`,
  );
  const width = Math.max(...[...results.keys()].map((k) => k.length));
  for (const [label, samples] of results) {
    const polled = samples.filter((s) => Number.isFinite(s.firstPollS));
    const f = (pick: (s: Sample) => number, of: Sample[] = samples) => (of.length === 0 ? "–" : summarize(of.map(pick)).text);
    const late = samples.length - polled.length;
    const start = `first getUpdates ${f((s) => s.firstPollS, polled)} s${late > 0 ? ` (${late} of ${samples.length} not within ${options.timeoutMs / 1000} s)` : ""}`;
    const capped = samples.filter((s) => s.capped).length;
    console.log(
      `  ${label.padEnd(width)}  ${start}, RSS then ${f((s) => s.rssAtPollMb, polled)} MB, ` +
        `plateau ${f((s) => s.plateauMb)} MB reached ${f((s) => s.plateauAtS)} s after${capped > 0 ? ` (${capped} of ${samples.length} still rising at the cap)` : ""}, ` +
        `peak ${f((s) => s.peakMb)} MB, longest loop stall after ${f((s) => s.loopMaxMs)} ms`,
    );
  }
  for (const label of ["this code, empty store", "this code, seeded store"]) {
    const samples = results.get(label);
    if (!samples) continue;
    const peak = summarize(samples.map((s) => s.peakMb)).median;
    const plateau = summarize(samples.map((s) => s.plateauMb)).median;
    const capped = samples.some((s) => s.capped);
    // A process that never polled counts as over the limit (the median of Infinity and finite values stays honest).
    const start = summarize(samples.map((s) => s.firstPollS)).median;
    printGoal(
      `${label}: RSS ≤ 150 MB after it plateaus`,
      !capped && Math.max(peak, plateau) <= 150,
      `plateau ${Math.round(plateau)} MB${capped ? " (still rising at the cap)" : ""}, peak ${Math.round(peak)} MB`,
    );
    printGoal(`${label}: start to first getUpdates ≤ 1.5 s`, start <= 1.5, `median ${start.toFixed(2)} s`);
  }
}
