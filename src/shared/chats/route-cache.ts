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
 * The repository with `findRoute` (the webhook path) served from memory: each
 * webhook otherwise costs two record reads, a schema check and a decryption
 * before its signature can be checked. Every method that can change a route
 * or a secret clears the cache; a read that began before such a change never
 * stores its (possibly stale) answer.
 */
export function withRouteCache(chats: ChatRepository, options: RouteCacheOptions = {}): ChatRepository {
  const ttlMs = options.ttlMs ?? ROUTE_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const targets = new Map<string, Entry<WebhookRoute>>();
  let generation = 0;

  function forget(): void {
    generation += 1;
    targets.clear();
  }

  function cached(routeId: string): Entry<WebhookRoute> | undefined {
    const entry = targets.get(routeId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now()) return entry;
    targets.delete(routeId);
    return undefined;
  }

  function remember(routeId: string, target: WebhookRoute, since: number): void {
    if (since !== generation) return;
    if (targets.size >= maxEntries) {
      const oldest = targets.keys().next();
      if (oldest.done !== true) targets.delete(oldest.value);
    }
    targets.set(routeId, { value: target, expiresAt: now() + ttlMs });
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
    async findRoute(routeId) {
      const hit = cached(routeId);
      if (hit) return hit.value;
      const since = generation;
      const target = await chats.findRoute(routeId);
      if (target !== undefined) remember(routeId, target, since);
      return target;
    },
    link: (chatId, input) => thenForget(chats.link(chatId, input)),
    unlink: (chatId) => thenForget(chats.unlink(chatId)),
    setWebhookSecret: (chatId, secret) => thenForget(chats.setWebhookSecret(chatId, secret)),
    rotateRoute: (chatId) => thenForget(chats.rotateRoute(chatId)),
    resealAll: (onProgress) => thenForget(chats.resealAll(onProgress)),
  };
}
