import type { AppEventEmitter } from "./events.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { createAddressBook, type AddressBook } from "./address-book.js";
import { CHAT_RECORDS_CACHED, createChatRepository, type ChatRepository } from "./chats/chat-repository.js";
import { createLimitSettingsStore, type LimitSettingsStore } from "./limits/limit-settings.js";
import { withRouteCache } from "./chats/route-cache.js";
import { createOrderHistory, type OrderHistory } from "./orders/order-history.js";
import { createJobsEngine, type JobsEngine } from "../platform/jobs/jobs-engine.js";
import { queueModeFor, type QueueMode } from "../platform/queue/queue-mode.js";
import { createReadMemo, type ReadMemo } from "../platform/store/read-memo.js";
import { openStore, storageScope, type OpenStoreDeps } from "../platform/store/open-store.js";
import { isStoreUnreachable } from "../platform/store/store-outage.js";
import type { RecordReads } from "../platform/store/record-store.js";
import type { StoreBackend } from "../platform/store/types.js";
import { createVault, type Vault } from "./vault.js";

export interface StorageDeps {
  config: Pick<Config, "storageUrl" | "encryptionKey"> & Partial<Pick<Config, "encryptionKeyPrevious" | "storagePrefix">>;
  logger: Logger;
  /** Sweeps of expired records; 0 turns them off (tests). Default: the store's. */
  purgeIntervalMs?: number;
  /** Told when this process can no longer be sure it is the only one running the local queues. */
  onFatal?: (error: unknown) => void;
  /** Ends the wait for a store that is not reachable at start. */
  signal?: AbortSignal;
  /** The app's events: the chat repository tells links and unlinks there. */
  events?: AppEventEmitter;
  /** The wait between two tries to reach the store at start: first, then doubled up to the cap. Default 500 ms, 10 s. */
  startRetry?: { firstDelayMs: number; maxDelayMs: number };
  /** The outage was told already (a start it cut short): the wait for the store is said at debug only. */
  outageTold?: boolean;
}

/** The lock that makes this process the only one running the local queues on a shared store. */
const LOCAL_QUEUES_LOCK = "local-queues";

/** Start-up refused: another process already runs the local queues on this store. */
export class StoreInUseError extends Error {
  override readonly name = "StoreInUseError";
}

/** What everything else reads and writes: the store and the repositories over it. */
export interface Storage {
  store: StoreBackend;
  vault: Vault;
  chats: ChatRepository;
  /**
   * Units of work (an update, a tracked change, a webhook event) on a store other processes write too: the records
   * each reads once. Undefined when this process alone writes the store: its repositories keep records across units.
   */
  memo: ReadMemo | undefined;
  /** History is kept per linked account, so a re-linked chat keeps its orders. */
  history: OrderHistory;
  /** The one address book of the process (a cached namespace has one record store). */
  addressBook: AddressBook;
  /** The one spend-limit settings store of the process, per linked account. */
  limitSettings: LimitSettingsStore;
  /** Decided here, once, from the store: BullMQ on Redis, else the store itself. */
  queueMode: QueueMode;
  /** The timed jobs of every feature, on the queue mode's engine. */
  jobs: JobsEngine;
  close(): Promise<void>;
}

/** How long a lock still held after its connection broke may be the broken session itself, not another process. */
const LOCK_HANDOVER_GRACE_MS = 5_000;

/** Start-up refused by the store itself (credentials, permissions, a bad table): waiting would not help. */
export class StoreRefusedError extends Error {
  override readonly name = "StoreRefusedError";
}

export async function createStorage({
  config,
  logger,
  purgeIntervalMs,
  onFatal,
  signal,
  startRetry,
  outageTold = false,
  events,
}: StorageDeps): Promise<Storage> {
  const prefix = config.storagePrefix ?? "";
  const store = await openWhenReachable(
    config.storageUrl,
    { logger, prefix, ...(purgeIntervalMs === undefined ? {} : { purgeIntervalMs }) },
    { signal, retry: startRetry, outageTold },
  );
  const queueMode = queueModeFor(store, config.storageUrl, storageScope(prefix));
  const lock = queueMode.queue === "local" ? await holdLocalQueues(store, prefix, logger, onFatal) : undefined;
  const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
  const soleWriter = queueMode.queue === "local";
  // A sole writer keeps records across units of work and needs no memo, whose AsyncLocalStorage would slow every
  // promise of the process (Node 20 runs a promise hook for each while one is enabled).
  const memo = soleWriter ? undefined : createReadMemo();
  const reads: RecordReads = memo ? { memo } : { cache: { maxEntries: CHAT_RECORDS_CACHED } };
  // Every webhook resolves its route and opens its secret: served from memory, cleared on change.
  const chats = withRouteCache(createChatRepository({ store, vault, logger, ...(memo ? { memo } : {}), soleWriter, ...(events ? { events } : {}) }));
  const history = createOrderHistory({ store, logger, reads, accountOf: (chatId) => chats.account(chatId) });
  return {
    store,
    vault,
    memo,
    chats,
    history,
    addressBook: createAddressBook({ store, logger, reads }),
    limitSettings: createLimitSettingsStore({ store, logger, reads, accountOf: async (chatId) => (await chats.account(chatId))?.id }),
    queueMode,
    jobs: createJobsEngine({ store, ...queueMode }),
    close: () => {
      lock?.giveUp();
      memo?.close();
      return store.close();
    },
  };
}

/** The wait between two tries to reach the store at start: first, then doubled up to the cap. */
export const START_RETRY = { firstDelayMs: 500, maxDelayMs: 10_000 };

/**
 * A store that cannot be reached at start (Redis or Postgres not up yet, or
 * restarting) is waited for, with backoff, said once in the log; one that
 * answers and refuses is an error at once.
 */
async function openWhenReachable(
  url: string,
  deps: OpenStoreDeps,
  { signal, retry = START_RETRY, outageTold }: { signal: AbortSignal | undefined; retry: StorageDeps["startRetry"]; outageTold: boolean },
) {
  let delayMs = retry.firstDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const store = await openStore(url, deps);
      if (attempt > 1) deps.logger.info({ attempts: attempt }, "store reachable; starting");
      return store;
    } catch (error) {
      if (!isStoreUnreachable(error)) throw new StoreRefusedError(error instanceof Error ? error.message : String(error), { cause: error });
      if (attempt === 1 && !outageTold) deps.logger.warn({ reason: reasonOf(error), retryInMs: delayMs }, "store unreachable at start; waiting for it");
      else deps.logger.debug({ reason: reasonOf(error), attempt, retryInMs: delayMs }, "store still unreachable at start");
    }
    await sleep(delayMs, undefined, signal ? { signal } : {});
    delayMs = Math.min(delayMs * 2, retry.maxDelayMs);
  }
}

/** The error's message and its causes', in one line (no stack: it says nothing of an outage). */
function reasonOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.join(": ");
}

/**
 * Local queues (push, webhook inbox) are paced and run by the process that
 * holds them: a second process on the same Postgres would send every
 * notification twice. So it refuses to start. (SQLite: one file, one host;
 * Redis runs the queues on BullMQ, shared by design.)
 */
async function holdLocalQueues(store: StoreBackend, prefix: string, logger: Logger, onFatal: StorageDeps["onFatal"]): Promise<{ giveUp(): void } | undefined> {
  if (!store.holdForLifetime) return undefined;
  const hold = store.holdForLifetime.bind(store);
  let closed = false;
  const fatal = (error: Error) => {
    if (onFatal) onFatal(error);
    else logger.error({ err: error }, "local queue lock lost");
  };
  /**
   * The lock lives on one connection; a restarted Postgres or a terminated session ends it.
   * Taken again at once when no one else took it (with backoff while Postgres is down); when
   * another process took it meanwhile, this one must stop (non-zero: a supervisor restarts it, and
   * it then waits its turn with StoreInUseError).
   */
  let generation = 0;
  let retaking = false;
  /** One try; only the latest try's connection counts, and one lost during the try is seen by the loop below. */
  async function holdOnce(): Promise<{ held: boolean; gone: () => boolean }> {
    const mine = ++generation;
    let gone = false;
    const held = await hold(LOCAL_QUEUES_LOCK, (error) => {
      gone = true;
      if (mine === generation && !retaking && !closed)
        retake(error).catch((failure: unknown) => fatal(failure instanceof Error ? failure : new Error(String(failure))));
    });
    return { held, gone: () => gone };
  }
  async function retake(cause: Error): Promise<void> {
    retaking = true;
    const lostAt = Date.now();
    logger.warn({ reason: cause.message }, "lost the Postgres connection holding this bot's lock on the store; taking the lock again");
    let delayMs = 250;
    try {
      while (!closed) {
        try {
          const attempt = await holdOnce();
          if (closed) return;
          if (attempt.held && !attempt.gone()) {
            logger.info("store lock taken again: this is still the only bot process on the store");
            return;
          }
          // Postgres may not have ended the broken session yet (it still holds the lock): only a holder seen past the grace is another process.
          if (!attempt.held && Date.now() - lostAt >= LOCK_HANDOVER_GRACE_MS) {
            fatal(
              new StoreInUseError(
                "another bot process took this Postgres store while this one's lock connection was lost; stopping so that no notification is sent twice",
                { cause },
              ),
            );
            return;
          }
        } catch (error) {
          if (closed) return;
          logger.debug({ err: error, retryInMs: delayMs }, "store lock not taken yet");
        }
        await sleep(delayMs);
        delayMs = Math.min(delayMs * 2, 10_000);
      }
    } finally {
      retaking = false;
    }
  }
  const { held } = await holdOnce();
  if (held) {
    return {
      giveUp: () => {
        closed = true;
      },
    };
  }
  await store.close();
  throw new StoreInUseError(
    `another bot process already runs on this Postgres store (its table${prefix ? ` and STORAGE_PREFIX=${prefix}` : ""}): ` +
      "on Postgres the push queue and the webhook inbox run inside one process, and a second one would send notifications twice. " +
      "Stop the other process first, give this bot its own STORAGE_PREFIX or ?table=, or scale out on Redis (STORAGE_URL=redis://…, BOT_MODE=worker|webhook).",
  );
}
