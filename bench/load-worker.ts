// Load generator in its own thread, so the servers under test keep the main event loop to themselves.
// Started by bench/webhook-load.ts with tsx imported into the thread.
import { parentPort, workerData } from "node:worker_threads";
import { Pool } from "undici";

export interface LoadRequest {
  path: string;
  body: string;
  headers: Record<string, string>;
}
export interface LoadJob {
  origin: string;
  requests: LoadRequest[];
  mode: "open" | "closed";
  rate: number;
  connections: number;
  durationMs: number;
  timeoutMs: number;
}
export interface LoadResult {
  latencies: number[];
  statuses: Record<string, number>;
  elapsedMs: number;
  done?: number;
}

const { origin, requests, mode, rate, connections, durationMs, timeoutMs } = workerData as LoadJob;
const pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

async function one(r: LoadRequest): Promise<number> {
  const res = await pool.request({ method: "POST", path: r.path, body: r.body, headers: r.headers });
  await res.body.dump();
  return res.statusCode;
}

async function openLoop(): Promise<LoadResult> {
  // Latency counts from the scheduled send time: a server that falls behind is charged for the queue it built.
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const start = performance.now();
  let lastDone = start;
  const pending: Promise<unknown>[] = [];
  let i = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (i < requests.length && start + (i * 1000) / rate <= now) {
        const due = start + (i * 1000) / rate;
        const r = requests[i]!;
        i += 1;
        pending.push(
          one(r).then(
            (status) => {
              statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
              const t = performance.now();
              if (status < 300) latencies.push(t - due);
              lastDone = Math.max(lastDone, t);
            },
            () => (statuses["error"] = (statuses["error"] ?? 0) + 1),
          ),
        );
      }
      if (i < requests.length) setImmediate(tick);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  return { latencies, statuses, elapsedMs: lastDone - start };
}

async function closedLoop(): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  let next = 0;
  let done = 0;
  const start = performance.now();
  const end = start + durationMs;
  const loop = async () => {
    while (performance.now() < end && next < requests.length) {
      const r = requests[next]!;
      next += 1;
      const status = await one(r).catch(() => undefined);
      const label = status === undefined ? "error" : String(status);
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (status !== undefined && status < 300) done += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return { latencies: [], statuses, elapsedMs: performance.now() - start, done };
}

const result = mode === "open" ? await openLoop() : await closedLoop();
await pool.close();
parentPort?.postMessage(result);
