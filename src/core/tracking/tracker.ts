import { createRecordStore } from "../store/record-store.js";
import { createKeyedMutex } from "../store/keyed-mutex.js";
import { ServiceError } from "../service/errors.js";
import { isBroadcastFinished, isOrderFinished } from "../service/schemas.js";
import { createAnnouncedMemory, type AnnouncedMemory } from "./announced-memory.js";
import { backoffDelay, historyEntryOf, itemKey, trackedItemSchema, type TrackedItem, type TrackedRecord } from "./tracked-item.js";
import type { HistoryEntry } from "../orders/order-history.js";
import { DEFAULT_TRACKING, type Tracker, type TrackerChange, type TrackerDeps, type TrackInput } from "./tracker-types.js";

export { DEFAULT_TRACKING, type Tracker, type TrackerChange, type TrackerDeps, type TrackerGiveUp, type TrackInput, type TrackedRecord } from "./tracker-types.js";

/** The locally read parts of a broadcast's history entry, for its card. */
function localDetails(entry: HistoryEntry | undefined): TrackerChange["local"] {
  if (!entry) return undefined;
  const { txKind, amountAtomic, amountSun, contractType, contractAddress } = entry;
  return {
    ...(txKind === undefined ? {} : { txKind }),
    ...(amountAtomic === undefined ? {} : { amountAtomic }),
    ...(amountSun === undefined ? {} : { amountSun }),
    ...(contractType === undefined ? {} : { contractType }),
    ...(contractAddress === undefined ? {} : { contractAddress }),
  };
}

function withoutPendingCard(item: TrackedItem): TrackedItem {
  const { pendingCard: _drawn, ...rest } = item;
  return rest;
}

export function createTracker(deps: TrackerDeps): Tracker {
  const logger = deps.logger.child({ component: "tracker" });
  const now = deps.now ?? Date.now;
  const backoff = { minDelayMs: deps.minDelayMs ?? DEFAULT_TRACKING.minDelayMs, maxDelayMs: deps.maxDelayMs ?? DEFAULT_TRACKING.maxDelayMs };
  const orderHorizonMs = deps.orderHorizonMs ?? DEFAULT_TRACKING.orderHorizonMs;
  const marginMs = deps.broadcastMarginMs ?? DEFAULT_TRACKING.broadcastMarginMs;
  const cardGraceMs = deps.cardGraceMs ?? DEFAULT_TRACKING.cardGraceMs;
  const items = createRecordStore({ kv: deps.store.namespace("tracking"), schema: trackedItemSchema, version: 1, logger, name: "tracking" });
  const announced: AnnouncedMemory = createAnnouncedMemory(deps.store);
  const mutex = createKeyedMutex();
  /** Live items by key with their timer; the store is the truth across restarts. */
  const live = new Map<string, { item: TrackedItem; timer?: NodeJS.Timeout }>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  /** Aborted by stop(): a shutdown does not wait for a slow service. */
  let reads = new AbortController();

  function publishSize(): void {
    if (!deps.metrics) return;
    for (const kind of ["order", "broadcast"] as const) {
      let n = 0;
      for (const { item } of live.values()) if (item.kind === kind) n += 1;
      deps.metrics.set("tracked_items", n, { kind });
    }
  }

  function schedule(item: TrackedItem, delayMs: number): void {
    const key = itemKey(item.chatId, item.kind, item.id);
    const entry = live.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    if (stopped) return;
    const timer = setTimeout(() => run(key), Math.max(0, delayMs));
    live.set(key, { item, timer });
    publishSize();
  }

  function run(key: string): void {
    const p = mutex.run(key, () => poll(key)).catch((error: unknown) => {
      logger.error({ err: error, key }, "tracking poll failed");
      // A store or notifier fault must not end tracking silently: try again later.
      const entry = live.get(key);
      if (entry) schedule({ ...entry.item, attempt: entry.item.attempt + 1 }, backoffDelay(entry.item.attempt + 1, backoff));
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  async function forget(key: string): Promise<void> {
    const entry = live.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    live.delete(key);
    await items.delete(key);
    publishSize();
  }

  async function read(item: TrackedItem, apiKey: string): Promise<TrackedRecord> {
    return item.kind === "order"
      ? { kind: "order", record: await deps.service.getOrder(apiKey, item.id, { signal: reads.signal }) }
      : { kind: "broadcast", record: await deps.service.getBroadcast(apiKey, item.id, { signal: reads.signal }) };
  }

  /** Announces `status` unless it already was; false when rendering failed. */
  async function announce(item: TrackedItem, tracked: TrackedRecord, final: boolean): Promise<boolean> {
    const status = tracked.record.status;
    const key = { chatId: item.chatId, kind: item.kind, id: item.id, status };
    if (await announced.has(key)) return true;
    const local = item.kind === "broadcast" ? localDetails(await deps.history?.get(item.chatId, "broadcast", item.id)) : undefined;
    try {
      await deps.onChange({
        ...tracked,
        chatId: item.chatId,
        previousStatus: item.status,
        final,
        origin: item.origin,
        ...(item.cardMessageId === undefined ? {} : { cardMessageId: item.cardMessageId }),
        ...(item.cardStatus === undefined ? {} : { cardStatus: item.cardStatus }),
        ...(item.locale === undefined ? {} : { locale: item.locale }),
        ...(local === undefined ? {} : { local }),
      });
    } catch (error) {
      logger.warn({ err: error, id: item.id, status }, "announcing a change failed; will retry");
      return false;
    }
    await announced.mark(key);
    return true;
  }

  async function poll(key: string): Promise<void> {
    const entry = live.get(key);
    if (!entry || stopped) return;
    let item = entry.item;
    if (item.pendingCard) {
      // The bot is still drawing the first card; its report (or the grace's end) comes first.
      const waitMs = item.startedAtMs + cardGraceMs - now();
      if (waitMs > 0) {
        schedule(item, waitMs);
        return;
      }
      item = withoutPendingCard(item);
    }
    const apiKey = await deps.getApiKey(item.chatId);
    if (apiKey === undefined) {
      logger.info({ chatId: item.chatId, id: item.id }, "chat has no key any more; tracking stopped");
      return forget(key);
    }
    let tracked: TrackedRecord;
    try {
      tracked = await read(item, apiKey);
    } catch (error) {
      if (ServiceError.isInstance(error) && (error.isNotFound || error.isKeyRejected)) {
        // Re-linked to another account, or the key was revoked: /track will say which.
        logger.warn({ chatId: item.chatId, id: item.id, code: error.code }, "tracked item unreadable; tracking stopped");
        // An id never seen (a webhook about someone else's record) is dropped without a word.
        return item.status === undefined ? forget(key) : giveUp(key, item);
      }
      logger.debug({ err: error, id: item.id }, "tracking read failed; backing off");
      return settle(key, { ...item, attempt: item.attempt + 1 });
    }
    if (tracked.kind === "broadcast") item = { ...item, deadlineMs: tracked.record.txExpirationMs + marginMs };
    const status = tracked.record.status;
    const final = tracked.kind === "order" ? isOrderFinished(status) : isBroadcastFinished(status);
    if (status !== item.status) {
      if (!(await announce(item, tracked, final))) return settle(key, { ...item, attempt: item.attempt + 1 });
      // First sight of a record made elsewhere: it joins the chat's history too.
      if (item.origin === "hint" && item.status === undefined) await deps.history?.add(item.chatId, [historyEntryOf(tracked, now())]);
      else await deps.history?.setStatus(item.chatId, item.kind, item.id, status, now());
      item = { ...item, status, attempt: 0, ...(item.cardMessageId === undefined ? {} : { cardStatus: status }) };
    } else {
      item = { ...item, attempt: item.attempt + 1 };
    }
    if (final) return forget(key);
    return settle(key, item);
  }

  async function giveUp(key: string, item: TrackedItem): Promise<void> {
    await forget(key);
    await deps.onGiveUp?.({
      chatId: item.chatId,
      kind: item.kind,
      id: item.id,
      lastStatus: item.status,
      ...(item.cardMessageId === undefined ? {} : { cardMessageId: item.cardMessageId }),
      ...(item.locale === undefined ? {} : { locale: item.locale }),
    });
  }

  /** Persists the item and schedules its next read, or gives up past its deadline. */
  async function settle(key: string, item: TrackedItem): Promise<void> {
    if (now() >= item.deadlineMs) {
      logger.info({ chatId: item.chatId, id: item.id, status: item.status }, "tracking horizon reached");
      return giveUp(key, item);
    }
    await items.set(key, item);
    const delay = backoffDelay(item.attempt, backoff);
    schedule(item, Math.min(delay, Math.max(0, item.deadlineMs - now())));
  }

  function newItem(input: TrackInput, origin: TrackedItem["origin"]): TrackedItem {
    const at = now();
    const deadlineMs =
      input.kind === "order" ? at + orderHorizonMs : (input.txExpirationMs ?? at + 10 * 60_000) + marginMs;
    return {
      chatId: input.chatId,
      kind: input.kind,
      id: input.id,
      startedAtMs: at,
      deadlineMs,
      attempt: 0,
      origin,
      ...(input.status === undefined ? {} : { status: input.status }),
      ...(input.cardMessageId === undefined ? {} : { cardMessageId: input.cardMessageId, ...(input.status === undefined ? {} : { cardStatus: input.status }) }),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
      ...(input.pendingCard && input.status === undefined ? { pendingCard: true } : {}),
    };
  }

  return {
    async start() {
      stopped = false;
      if (reads.signal.aborted) reads = new AbortController();
      for await (const [key, item] of items.list()) {
        // A card being drawn by a process that is gone will not be reported: announce it now.
        if (!live.has(key)) schedule(withoutPendingCard(item), 0);
      }
      logger.info({ items: live.size }, "tracker started");
    },

    async stop() {
      stopped = true;
      reads.abort();
      for (const entry of live.values()) if (entry.timer) clearTimeout(entry.timer);
      live.clear();
      await Promise.allSettled([...inFlight]);
    },

    async track(input) {
      const key = itemKey(input.chatId, input.kind, input.id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        let item: TrackedItem;
        if (existing) {
          // A webhook may have raced ahead of the bot: keep what it saw, add the card.
          const { cardStatus: previousCard, ...rest } = existing;
          // A new card shows what its caller drew; the old card's status says nothing about it.
          const cardStatus = input.cardMessageId === undefined ? previousCard : input.status;
          item = {
            ...rest,
            origin: "bot",
            ...(input.cardMessageId === undefined ? {} : { cardMessageId: input.cardMessageId }),
            ...(cardStatus === undefined ? {} : { cardStatus }),
            ...(input.locale === undefined ? {} : { locale: input.locale }),
            ...(input.pendingCard && rest.status === undefined ? { pendingCard: true } : {}),
          };
        } else {
          item = newItem(input, "bot");
          if (input.status !== undefined) {
            // The card already shows it: remember it as announced, do not send it again.
            await announced.mark({ chatId: input.chatId, kind: input.kind, id: input.id, status: input.status });
          }
        }
        await items.set(key, item);
        schedule(item, item.pendingCard ? cardGraceMs : backoff.minDelayMs);
      });
    },

    async cardShown({ chatId, kind, id, cardMessageId, status }) {
      const key = itemKey(chatId, kind, id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        if (!existing) return;
        const firstSight = existing.status === undefined;
        // The first card after a confirm announces its status: mark it before the item says so.
        if (firstSight) await announced.mark({ chatId, kind, id, status });
        const item: TrackedItem = {
          ...withoutPendingCard(existing),
          ...(cardMessageId === undefined ? {} : { cardMessageId, cardStatus: status }),
          ...(firstSight ? { status } : {}),
        };
        await items.set(key, item);
        const entry = live.get(key);
        if (!entry) return;
        if (existing.pendingCard) schedule(item, backoff.minDelayMs);
        else live.set(key, { ...entry, item });
      });
    },

    async cardNotShown({ chatId, kind, id }) {
      const key = itemKey(chatId, kind, id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        if (!existing?.pendingCard) return;
        const item = withoutPendingCard(existing);
        await items.set(key, item);
        if (live.has(key)) schedule(item, 0);
      });
    },

    async hint({ chatId, kind, id }) {
      const key = itemKey(chatId, kind, id);
      const known = live.has(key) || (await items.get(key)) !== undefined;
      if (!known) {
        const mine = await deps.history?.get(chatId, kind, id);
        const item = newItem({ chatId, kind, id, ...(mine ? { status: mine.status } : {}) }, mine ? "bot" : "hint");
        await mutex.run(key, () => {
          if (!live.has(key)) live.set(key, { item });
          return Promise.resolve();
        });
      }
      // Re-read now, serialized with any poll of the same item.
      const p = mutex.run(key, () => poll(key));
      inFlight.add(p);
      try {
        await p;
      } finally {
        inFlight.delete(p);
      }
    },

    async stopChat(chatId) {
      const keys = new Set<string>();
      for (const [key, { item }] of live) if (item.chatId === chatId) keys.add(key);
      for await (const [key, item] of items.list()) if (item.chatId === chatId) keys.add(key);
      for (const key of keys) await mutex.run(key, () => forget(key));
      return keys.size;
    },

    get size() {
      return live.size;
    },
  };
}
