// Load generator in its own thread, so the servers under test keep the main event loop to themselves.
// Started once by bench/webhook-load.ts (tsx registered in the thread) and given one job at a time; it
// builds and signs its own requests, so nothing large crosses the thread boundary and the main thread
// spends nothing on the load. Its connection pools live across jobs: a warm-up job opens the
// connections and warms the JIT on both sides before anything is measured.
import { parentPort } from "node:worker_threads";
import { Pool } from "undici";
import { signatureHeader } from "../testkit/simulator/webhooks.js";

export interface LoadJob {
  origin: string;
  path: string;
  secret: string;
  headerPrefix: string;
  /** Distinct delivery ids across jobs: `<run>_<first + i>`. */
  run: string;
  first: number;
  count: number;
  mode: "open" | "closed";
  /** Open loop: requests per second offered. */
  rate: number;
  connections: number;
  /** Closed loop: stops after this long (or when `count` is used up). */
  durationMs: number;
  timeoutMs: number;
  /** The orders the events name, in turn (real ones, so a real handler re-reads real records); absent: a new made-up id per event. */
  orderIds?: string[];
}
export interface LoadResult {
  /** Milliseconds from each acknowledged request's scheduled send time (open loop) to its answer. */
  latencies: number[];
  statuses: Record<string, number>;
  elapsedMs: number;
  /** Requests sent (closed loop: how many ids of the job were used). */
  sent: number;
  done: number;
}
interface Request {
  body: string;
  headers: Record<string, string>;
}

const pools = new Map<string, Pool>();

function pool(origin: string, connections: number, timeoutMs: number): Pool {
  const key = `${origin} ${connections}`;
  let p = pools.get(key);
  if (!p) {
    p = new Pool(origin, { connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    pools.set(key, p);
  }
  return p;
}

function build(job: LoadJob): Request[] {
  const t = Math.floor(Date.now() / 1000);
  return Array.from({ length: job.count }, (_, i) => {
    const n = job.first + i;
    const body = JSON.stringify({
      id: `evt_${job.run}_${n}`,
      event: "order.created",
      data: { order: { id: job.orderIds?.[n % job.orderIds.length] ?? `${job.run}${n.toString(16).padStart(16, "0")}`, status: "pending" } },
    });
    const headers = {
      "content-type": "application/json",
      [`${job.headerPrefix}-Event`]: "order.created",
      [`${job.headerPrefix}-Delivery-Id`]: `dlv_${job.run}_${n}`,
      [`${job.headerPrefix}-Signature`]: signatureHeader(job.secret, t, body),
    };
    return { body, headers };
  });
}

async function openLoop(job: LoadJob, requests: Request[]): Promise<LoadResult> {
  // Latency counts from the scheduled send time: a server that falls behind is charged for the queue it built.
  const p = pool(job.origin, job.connections, job.timeoutMs);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let done = 0;
  const start = performance.now();
  let lastDone = start;
  const pending: Promise<unknown>[] = [];
  let i = 0;
  await new Promise<void>((resolve) => {
    // A 1 ms timer sends whatever is due; a tighter spin would take a whole core from the servers under test.
    const tick = () => {
      const now = performance.now();
      while (i < requests.length && start + (i * 1000) / job.rate <= now) {
        const due = start + (i * 1000) / job.rate;
        const r = requests[i]!;
        i += 1;
        pending.push(
          p.request({ method: "POST", path: job.path, body: r.body, headers: r.headers }).then(
            async (res) => {
              await res.body.dump();
              const t = performance.now();
              statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
              if (res.statusCode < 300) {
                latencies.push(t - due);
                done += 1;
              }
              lastDone = Math.max(lastDone, t);
            },
            () => (statuses["error"] = (statuses["error"] ?? 0) + 1),
          ),
        );
      }
      if (i < requests.length) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  return { latencies, statuses, elapsedMs: lastDone - start, sent: i, done };
}

async function closedLoop(job: LoadJob, requests: Request[]): Promise<LoadResult> {
  const p = pool(job.origin, job.connections, job.timeoutMs);
  const statuses: Record<string, number> = {};
  let next = 0;
  let done = 0;
  const start = performance.now();
  const end = start + job.durationMs;
  const loop = async () => {
    while (performance.now() < end && next < requests.length) {
      const r = requests[next]!;
      next += 1;
      const status = await p.request({ method: "POST", path: job.path, body: r.body, headers: r.headers }).then(
        async (res) => (await res.body.dump(), res.statusCode),
        () => undefined,
      );
      const label = status === undefined ? "error" : String(status);
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (status !== undefined && status < 300) done += 1;
    }
  };
  await Promise.all(Array.from({ length: job.connections }, loop));
  return { latencies: [], statuses, elapsedMs: performance.now() - start, sent: next, done };
}

parentPort?.on("message", (job: LoadJob | "close") => {
  if (job === "close") {
    void Promise.all([...pools.values()].map((p) => p.close())).then(() => parentPort?.close());
    return;
  }
  const requests = build(job);
  void (job.mode === "open" ? openLoop(job, requests) : closedLoop(job, requests)).then((result) => parentPort?.postMessage(result));
});
parentPort?.postMessage("ready");
