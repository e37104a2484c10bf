/**
 * The benches' worker threads (the load generator, Telegram's side of the
 * updates bench): started on a TypeScript entry file, and closed by asking
 * them to close their connections first.
 */
import { Worker } from "node:worker_threads";

/** A worker on `entry` (a .ts file's URL): its entry is loaded before any --import hook runs, so tsx is registered first. */
export function startTsWorker(entry: URL): Worker {
  const href = JSON.stringify(entry.href);
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${href}); });`, { eval: true });
}

/** Posts "close" and waits for the thread to end; one whose last connection never settles is terminated after 5 s, or it would keep the bench alive for good. */
export async function closeWorker(worker: Worker): Promise<void> {
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.postMessage("close");
  const stuck = setTimeout(() => void worker.terminate(), 5_000);
  await exited;
  clearTimeout(stuck);
}
