import type { ChatRepository, WebhookRoute } from "./chat-repository.js";

export interface RouteCacheOptions {
  /**
   * How long a resolved route and its opened secret are trusted. Changes made
   * through this repository clear them at once; a change made by another
   * process (a second bot on the same store) is seen within this bound.
   */
  ttlMs?: number;
  /** Entries kept at most (oldest dropped first); unknown routes are never cached. */
  maxEntries?: number;
  now?: () => number;
}

export const ROUTE_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * The repository with `findRoute`, `findChatByRouteId` and `getWebhookSecret`
 * served from memory: each webhook otherwise costs two record reads, a schema
 * check and a decryption before its signature can be checked. Every method that
 * can change a route or a secret clears the cache; a read that began before
 * such a change never stores its (possibly stale) answer.
 */
export function withRouteCache(chats: ChatRepository, options: RouteCacheOptions = {}): ChatRepository {
  const ttlMs = options.ttlMs ?? ROUTE_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const routes = new Map<string, Entry<number>>();
  const secrets = new Map<number, Entry<string | undefined>>();
  const targets = new Map<string, Entry<WebhookRoute>>();
  let generation = 0;

  function forget(): void {
    generation += 1;
    routes.clear();
    secrets.clear();
    targets.clear();
  }

  function cached<K, V>(map: Map<K, Entry<V>>, key: K): Entry<V> | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now()) return entry;
    map.delete(key);
    return undefined;
  }

  function remember<K, V>(map: Map<K, Entry<V>>, key: K, value: V, since: number): void {
    if (since !== generation) return;
    if (map.size >= maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done !== true) map.delete(oldest.value);
    }
    map.set(key, { value, expiresAt: now() + ttlMs });
  }

  async function thenForget<T>(work: Promise<T>): Promise<T> {
    forget();
    try {
      return await work;
    } finally {
      forget();
    }
  }

  return {
    ...chats,
    async findChatByRouteId(routeId) {
      const hit = cached(routes, routeId);
      if (hit) return hit.value;
      const since = generation;
      const chatId = await chats.findChatByRouteId(routeId);
      if (chatId !== undefined) remember(routes, routeId, chatId, since);
      return chatId;
    },
    async findRoute(routeId) {
      const hit = cached(targets, routeId);
      if (hit) return hit.value;
      const since = generation;
      const target = await chats.findRoute(routeId);
      if (target !== undefined) remember(targets, routeId, target, since);
      return target;
    },
    async getWebhookSecret(chatId) {
      const hit = cached(secrets, chatId);
      if (hit) return hit.value;
      const since = generation;
      const secret = await chats.getWebhookSecret(chatId);
      remember(secrets, chatId, secret, since);
      return secret;
    },
    link: (chatId, input) => thenForget(chats.link(chatId, input)),
    unlink: (chatId) => thenForget(chats.unlink(chatId)),
    setWebhookSecret: (chatId, secret) => thenForget(chats.setWebhookSecret(chatId, secret)),
    rotateRoute: (chatId) => thenForget(chats.rotateRoute(chatId)),
    resealAll: (onProgress) => thenForget(chats.resealAll(onProgress)),
  };
}
