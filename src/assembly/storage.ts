import type { Logger } from "pino";
import type { Config } from "../config.js";
import { createChatRepository, type ChatRepository } from "../core/chats/chat-repository.js";
import { withRouteCache } from "../core/chats/route-cache.js";
import { createOrderHistory, type OrderHistory } from "../core/orders/order-history.js";
import { queueModeFor, type QueueMode } from "../core/queue/queue-mode.js";
import { openStore } from "../core/store/open-store.js";
import type { StoreBackend } from "../core/store/types.js";
import { createVault, type Vault } from "../core/vault.js";

export interface StorageDeps {
  config: Pick<Config, "storageUrl" | "encryptionKey"> & Partial<Pick<Config, "encryptionKeyPrevious">>;
  logger: Logger;
  /** Sweeps of expired records; 0 turns them off (tests). Default: the store's. */
  purgeIntervalMs?: number;
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

export async function createStorage({ config, logger, purgeIntervalMs }: StorageDeps): Promise<Storage> {
  const store = await openStore(config.storageUrl, { logger, ...(purgeIntervalMs === undefined ? {} : { purgeIntervalMs }) });
  const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
  // Every webhook resolves its route and opens its secret: served from memory, cleared on change.
  const chats = withRouteCache(createChatRepository({ store, vault, logger }));
  const history = createOrderHistory({ store, logger, accountOf: (chatId) => chats.account(chatId) });
  return { store, vault, chats, history, queueMode: queueModeFor(store, config.storageUrl), close: () => store.close() };
}
