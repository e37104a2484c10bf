import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { StoreBackend } from "./types.js";

export interface StoreWatchDeps {
  store: Pick<StoreBackend, "ping" | "namespace">;
  logger: Logger;
  /** How often the store is pinged and its marker read. Default 2 s. */
  intervalMs?: number;
  /** Hears every change of reachability (the logger's outage filter). */
  onReachability?: (up: boolean) => void;
}

export interface StoreWatch {
  /** Writes the marker (the store is up when this is called), then watches. */
  start(): Promise<void>;
  stop(): void;
  /** Looks now rather than at the next turn (a worker just failed to reach the store); one look at a time. */
  lookNow(): void;
  /** Whether the latest look reached the store. */
  readonly up: boolean;
  /** The store came back without the marker written at start: its data was lost. */
  readonly dataLost: boolean;
}

/** The marker's namespace and key: one per deployment (the namespace is scoped by STORAGE_PREFIX). */
const MARKER_NAMESPACE = "store-marker";
const MARKER_KEY = "written";

/**
 * Tells an outage of the store once, when it starts and when it ends, and
 * notices a store that came back empty: a marker written at start (kept
 * forever) that is gone means the store lost what it held, as a Redis without
 * persistence does when it restarts. That is an error, told once and kept in
 * /readyz, since nothing else would show it: the bot carries on with an empty
 * store (a user's links, plans and history gone).
 */
export function createStoreWatch({ store, logger: parent, intervalMs = 2_000, onReachability }: StoreWatchDeps): StoreWatch {
  const logger = parent.child({ component: "store-watch" });
  const marker = store.namespace(MARKER_NAMESPACE);
  let up = true;
  let dataLost = false;
  let downSince = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let looking: Promise<void> | undefined;

  const writeMarker = () => marker.set(MARKER_KEY, { at: new Date().toISOString(), by: randomBytes(4).toString("hex") });

  async function look(): Promise<void> {
    const reachable = await store.ping();
    if (!reachable) {
      if (up) {
        up = false;
        downSince = Date.now();
        logger.warn("store unreachable; waiting for it");
        onReachability?.(false);
      }
      return;
    }
    if (!up) {
      up = true;
      logger.info({ downForMs: Date.now() - downSince }, "store reachable again");
      onReachability?.(true);
    }
    if ((await marker.get(MARKER_KEY)) === undefined) {
      if (!dataLost) logger.error("store came back empty: its data was lost (a Redis without persistence restarted?)");
      dataLost = true;
      await writeMarker();
    }
  }

  function lookOnce(): Promise<void> {
    looking ??= look()
      // A failure between the ping and the marker is the next look's business.
      .catch((error: unknown) => logger.debug({ err: error }, "store look failed"))
      .finally(() => {
        looking = undefined;
      });
    return looking;
  }

  function next(): void {
    if (stopped) return;
    timer = setTimeout(() => void lookOnce().finally(next), intervalMs);
  }

  return {
    get up() {
      return up;
    },
    get dataLost() {
      return dataLost;
    },
    async start() {
      stopped = false;
      // Kept if present: a marker of an earlier run is as good, and a second process must not hide a loss.
      if ((await marker.get(MARKER_KEY)) === undefined) await writeMarker();
      next();
    },
    lookNow() {
      if (!stopped) void lookOnce();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
