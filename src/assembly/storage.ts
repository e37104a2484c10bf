import type { Logger } from "pino";
import type { Config } from "../config.js";
import { createChatRepository, type ChatRepository } from "../core/chats/chat-repository.js";
import { withRouteCache } from "../core/chats/route-cache.js";
import { createOrderHistory, type OrderHistory } from "../core/orders/order-history.js";
import { queueModeFor, type QueueMode } from "../core/queue/queue-mode.js";
import { openStore, storageScope } from "../core/store/open-store.js";
import type { StoreBackend } from "../core/store/types.js";
import { createVault, type Vault } from "../core/vault.js";

export interface StorageDeps {
  config: Pick<Config, "storageUrl" | "encryptionKey"> & Partial<Pick<Config, "encryptionKeyPrevious" | "storagePrefix">>;
  logger: Logger;
  /** Sweeps of expired records; 0 turns them off (tests). Default: the store's. */
  purgeIntervalMs?: number;
  /** Told when this process can no longer be sure it is the only one running the local queues. */
  onFatal?: (error: unknown) => void;
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
  /** History is kept per linked account, so a re-linked chat keeps its orders. */
  history: OrderHistory;
  /** Decided here, once, from the store: BullMQ on Redis, else the store itself. */
  queueMode: QueueMode;
  close(): Promise<void>;
}

export async function createStorage({ config, logger, purgeIntervalMs, onFatal }: StorageDeps): Promise<Storage> {
  const prefix = config.storagePrefix ?? "";
  const store = await openStore(config.storageUrl, { logger, prefix, ...(purgeIntervalMs === undefined ? {} : { purgeIntervalMs }) });
  const queueMode = queueModeFor(store, config.storageUrl, storageScope(prefix));
  if (queueMode.queue === "local") await holdLocalQueues(store, prefix, logger, onFatal);
  const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
  // Every webhook resolves its route and opens its secret: served from memory, cleared on change.
  const chats = withRouteCache(createChatRepository({ store, vault, logger }));
  const history = createOrderHistory({ store, logger, accountOf: (chatId) => chats.account(chatId) });
  return { store, vault, chats, history, queueMode, close: () => store.close() };
}

/**
 * Local queues (push, webhook inbox) are paced and run by the process that
 * holds them: a second process on the same Postgres would send every
 * notification twice. So it refuses to start. (SQLite: one file, one host;
 * Redis runs the queues on BullMQ, shared by design.)
 */
async function holdLocalQueues(store: StoreBackend, prefix: string, logger: Logger, onFatal: StorageDeps["onFatal"]): Promise<void> {
  if (!store.holdForLifetime) return;
  const held = await store.holdForLifetime(LOCAL_QUEUES_LOCK, (error) => {
    const lost = new Error("lost the Postgres connection that makes this the only bot process on the store; stopping (a restart takes it again)", { cause: error });
    if (onFatal) onFatal(lost);
    else logger.error({ err: lost }, "local queue lock lost");
  });
  if (held) return;
  await store.close();
  throw new StoreInUseError(
    `another bot process already runs on this Postgres store (its table${prefix ? ` and STORAGE_PREFIX=${prefix}` : ""}): ` +
      "on Postgres the push queue and the webhook inbox run inside one process, and a second one would send notifications twice. " +
      "Stop the other process first, give this bot its own STORAGE_PREFIX or ?table=, or scale out on Redis (STORAGE_URL=redis://…, BOT_MODE=worker|webhook).",
  );
}
