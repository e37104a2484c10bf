import { setImmediate as nextTurn } from "node:timers/promises";
import { createRecordStore } from "../../platform/store/record-store.js";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { ServiceError } from "../../platform/service/errors.js";
import { isBroadcastFinished, isOrderFinished } from "../../platform/service/schemas.js";

import { createAnnouncedMemory, type AnnouncedMemory } from "./announced-memory.js";
import { createAnnouncer } from "./announcer.js";
import { peekForWebhook } from "./peek.js";
import { itemKey, newTrackedItem, trackedItemSchema, type TrackedItem, type TrackedRecord, type TrackKind } from "./tracked-item.js";
import { withNewerCard, withoutPendingCard, withStoredCard, withTrackInput } from "./change-details.js";
import { DEFAULT_SPREAD, spreadFirstReads } from "./first-reads.js";
import { createItemLeases } from "./item-leases.js";
import { LiveItems } from "./live-items.js";
import { createDueQueue } from "../../platform/jobs/due-queue.js";
import { createRepeatedPass } from "../../platform/jobs/repeated-pass.js";
import { createTrackerReads, trackerReadLimits, type ReadTurn } from "./tracker-reads.js";
import { createPollSchedule } from "./poll-schedule.js";
import { holdStoredItems, releaseAll } from "./scan-items.js";
import { DEFAULT_TRACKING, type Tracker, type TrackerDeps, type TrackerGiveUp, type TrackInput } from "./tracker-types.js";
import { DEFAULT_NOT_FOUND, readFailure, withoutNotFound } from "./not-found.js";
import { recordStatus } from "./record-status.js";

export {
  DEFAULT_TRACKING,
  type Tracker,
  type TrackerChange,
  type TrackerDeps,
  type TrackerGiveUp,
  type TrackInput,
  type TrackedRecord,
} from "./tracker-types.js";

const isFinished = (kind: TrackKind, status: string): boolean => (kind === "order" ? isOrderFinished(status) : isBroadcastFinished(status));

/** Items adopted between two turns of the event loop. */
const ADOPT_SLICE = 100;

export function createTracker(deps: TrackerDeps): Tracker {
  const logger = deps.logger.child({ component: "tracker" });
  const now = deps.now ?? Date.now;
  const pace = createPollSchedule({
    ...deps.schedule,
    minDelayMs: deps.minDelayMs ?? DEFAULT_TRACKING.minDelayMs,
    maxDelayMs: deps.maxDelayMs ?? DEFAULT_TRACKING.maxDelayMs,
  });
  const orderHorizonMs = deps.orderHorizonMs ?? DEFAULT_TRACKING.orderHorizonMs;
  const marginMs = deps.broadcastMarginMs ?? DEFAULT_TRACKING.broadcastMarginMs;
  const cardGraceMs = deps.cardGraceMs ?? DEFAULT_TRACKING.cardGraceMs;
  const firstSightGraceMs = deps.firstSightGraceMs ?? DEFAULT_TRACKING.firstSightGraceMs;
  const notFoundBound = { ...DEFAULT_NOT_FOUND, ...deps.notFound };
  const items = createRecordStore({ kv: deps.store.namespace("tracking"), schema: trackedItemSchema, version: 1, logger, name: "tracking" });
  const announced: AnnouncedMemory = createAnnouncedMemory(deps.store);
  const held = createItemLeases(deps.leases, deps.leaseTtlMs ?? DEFAULT_TRACKING.leaseTtlMs, logger);
  const announce = createAnnouncer({ announced, held, logger, onChange: deps.onChange, ...(deps.history ? { history: deps.history } : {}) });
  const scanIntervalMs = deps.scanIntervalMs ?? DEFAULT_TRACKING.scanIntervalMs;
  const spread = deps.firstReadSpread ?? DEFAULT_SPREAD;
  const mutex = createKeyedMutex();
  const unit = deps.unit ?? (<T>(work: () => Promise<T>) => work());
  /** Items whose lease this process holds (their next reads on `polls`); the store is the truth across processes and restarts. */
  const live = new LiveItems(deps.metrics);
  /** Held items not stored yet (a webhook's first sight): a missing stored copy does not mean "forgotten" for them. */
  const unsaved = new Set<string>();
  /** First sights held back by the grace: a later webhook about them waits for the same first read. */
  const graced = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const limits = trackerReadLimits(deps.readLimits);
  const reads = createTrackerReads(deps.service);
  /** When each live item is read next, one timer for all of them, no more polls at once and per second than the limits. The poll reschedules its item itself. */
  const polls = createDueQueue<string>({ name: "tracker", logger, run, concurrency: limits.maxInFlight, maxPerSecond: limits.maxPerSecond });
  // Items tracked before `start` (which only adopts the stored ones) are polled too.
  polls.start();

  function schedule(item: TrackedItem, delayMs: number): void {
    if (stopped) return;
    const key = itemKey(item.chatId, item.kind, item.id);
    live.set(key, { item });
    polls.at(key, delayMs);
  }

  /**
   * A due item's poll, started by `polls` when the limits on reads of the service allow one more: they hold back
   * polls, not only their reads, and past them an item waits as its key in the queue (thousands may after a start).
   */
  function run(key: string): Promise<undefined> {
    const turn = reads.turn();
    const p = mutex
      .run(key, () => unit(() => poll(key, turn.read)))
      .finally(() => turn.end())
      .catch((error: unknown) => pollFailed(key, error));
    track(p);
    return p.then(() => undefined);
  }

  /** A store or notifier fault must not end tracking silently: logged, and the item tried again later. */
  function pollFailed(key: string, error: unknown): void {
    logger.error({ err: error, key }, "tracking poll failed");
    const entry = live.get(key);
    const item = entry && { ...entry.item, attempt: entry.item.attempt + 1 };
    if (item) schedule(item, pace.nextDelay(item, now(), true));
  }

  /** Work stop() waits for. */
  function track(p: Promise<void>): void {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  /** Stops polling here (another process holds the item now, or it was forgotten elsewhere). */
  function drop(key: string): void {
    polls.cancel(key);
    live.delete(key);
    unsaved.delete(key);
    graced.delete(key);
  }

  async function forget(key: string): Promise<void> {
    drop(key);
    await items.delete(key);
    await held.release(key);
  }

  async function poll(key: string, read: ReadTurn["read"]): Promise<void> {
    const entry = live.get(key);
    if (!entry || stopped) return;
    graced.delete(key);
    // Renewed at every read; lost only when this process stalled past the lease and another took the item.
    if (!(await held.hold(key))) {
      drop(key);
      return;
    }
    const stored = await items.get(key);
    // Forgotten by another process (/unlink, a blocked chat there): its lease goes with it.
    if (!stored && !unsaved.has(key)) return forget(key);
    let item = withStoredCard(entry.item, stored);
    if (item.pendingCard) {
      // The bot is still drawing the first card; its report (or the grace's end) comes first.
      const waitMs = item.startedAtMs + cardGraceMs - now();
      if (waitMs > 0) {
        schedule(item, waitMs);
        return;
      }
      item = withoutPendingCard(item);
    }
    if (item.origin === "hint" && item.status === undefined && deps.history) {
      // A first sight held back by the grace may have been placed by the bot meanwhile (the account's history
      // holds it now): placed here, it is the bot's own; placed in another chat of the account, that chat
      // tracks it with its card, and this copy is dropped without a word.
      const entry = await deps.history.get(item.chatId, item.kind, item.id);
      if (entry && !entry.madeElsewhere) {
        if (entry.chatId !== undefined && entry.chatId !== item.chatId) {
          logger.info({ chatId: item.chatId, id: item.id, placedIn: entry.chatId }, "first sight placed by another chat of the account");
          return forget(key);
        }
        item = { ...item, origin: "bot" };
      }
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
      return readFailed(key, item, error);
    }
    item = withoutNotFound(item);
    if (tracked.kind === "broadcast") item = { ...item, deadlineMs: tracked.record.txExpirationMs + marginMs };
    const status = tracked.record.status;
    const final = isFinished(tracked.kind, status);
    if (status !== item.status) {
      const seenAtMs = now();
      // The history first: what reads it (a keep plan's next order, the expiry of a delegation) must not wait
      // for the announcement, which may wait itself (a claim held elsewhere, a slow push queue).
      await recordStatus(deps.history, item, tracked, seenAtMs);
      const outcome = await announce(item, tracked, final, seenAtMs);
      // Another process is announcing it, or died doing so: its claim is short, so look again within it,
      // whatever the pace (the webhooks' 2 min safety net included).
      if (outcome === "busy") {
        logger.info(
          { chatId: item.chatId, id: item.id, status, withinMs: held.announceClaimMs },
          "status being announced by another process; looking again soon",
        );
        return settle(key, { ...item, attempt: item.attempt + 1 }, true, held.announceClaimMs);
      }
      if (outcome === "failed") return settle(key, { ...item, attempt: item.attempt + 1 }, true);
      item = { ...item, status, attempt: 0, ...(item.cardMessageId === undefined ? {} : { cardStatus: status }) };
    } else {
      item = { ...item, attempt: item.attempt + 1 };
    }
    if (final) return forget(key);
    return settle(key, item);
  }

  /** A read the service did not answer with the record (not-found.ts says what follows). */
  function readFailed(key: string, item: TrackedItem, error: unknown): Promise<void> {
    const fields = { chatId: item.chatId, id: item.id, code: ServiceError.isInstance(error) ? error.code : undefined };
    const next = readFailure(item, error, now(), notFoundBound);
    if (next.action === "forget") return forget(key);
    if (next.action === "give-up") {
      logger.warn({ ...fields, reason: next.reason, notFoundSince: item.notFound?.sinceMs }, "tracked item unreadable; tracking stopped");
      return giveUp(key, item, next.reason, item.notFound?.sinceMs);
    }
    if (next.notFound) logger.info({ ...fields, reads: next.item.notFound?.reads }, "tracked item not found; reading it again later");
    else logger.debug({ err: error, id: item.id }, "tracking read failed; backing off");
    return settle(key, next.item, true);
  }

  async function giveUp(key: string, item: TrackedItem, reason: TrackerGiveUp["reason"], notFoundSinceMs?: number): Promise<void> {
    await forget(key);
    await deps.onGiveUp?.({
      chatId: item.chatId,
      kind: item.kind,
      id: item.id,
      lastStatus: item.status,
      reason,
      ...(notFoundSinceMs === undefined ? {} : { notFoundSinceMs }),
      ...(item.cardMessageId === undefined ? {} : { cardMessageId: item.cardMessageId }),
      ...(item.locale === undefined ? {} : { locale: item.locale }),
    });
  }

  /** Persists the item and schedules its next read (within `atMostMs` when given), or gives up past its deadline. */
  async function settle(key: string, item: TrackedItem, failed = false, atMostMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (now() >= item.deadlineMs) {
      logger.info({ chatId: item.chatId, id: item.id, status: item.status }, "tracking horizon reached");
      return giveUp(key, item, "horizon");
    }
    const delay = Math.min(pace.nextDelay(item, now(), failed), atMostMs, Math.max(0, item.deadlineMs - now()));
    const wanted = { ...item, dueAtMs: now() + delay };
    // Atomic against the other processes: a forget there while this read ran stays a forget, and a card they drew meanwhile is kept.
    const due = await items.update(key, (stored) => (stored || unsaved.has(key) ? withNewerCard(wanted, stored) : undefined));
    unsaved.delete(key);
    if (!due) return forget(key);
    schedule(due, delay);
  }

  /**
   * Renews the leases of the items polled here, lets go of any another
   * process took, and adopts every stored item whose lease is free (never
   * held, or its holder died), spreading their first reads.
   */
  async function scan(): Promise<void> {
    const adopted = await holdStoredItems(items, held, { isLive: (key) => live.has(key), lost: drop, stopped: () => stopped });
    if (!adopted) return;
    // A card being drawn by a process that is gone will not be reported: such an item is due now.
    // No read is due later than the backoff's cap, whatever a stored due time says.
    const latest = now() + pace.maxDelayMs;
    const dueOf = (item: TrackedItem) => (item.pendingCard || item.dueAtMs === undefined ? undefined : Math.min(item.dueAtMs, latest));
    const delays = spreadFirstReads(
      adopted.map(([key, item]) => ({ key, dueAtMs: dueOf(item) })),
      now(),
      spread,
    );
    for (const [i, [key, item]] of adopted.entries()) {
      // Stopped while adopting in the background: the leases not picked up yet are handed back too.
      if (stopped)
        return releaseAll(
          held,
          adopted.slice(i).map(([k]) => k),
        );
      await mutex.run(key, () => {
        if (!live.has(key)) schedule(withoutPendingCard(item), delays.get(key) ?? 0);
        return Promise.resolve();
      });
      if (i % ADOPT_SLICE === ADOPT_SLICE - 1) await nextTurn();
    }
    if (adopted.length > 0) logger.info({ adopted: adopted.length, items: live.size }, "tracked items picked up");
  }

  /**
   * Alone on the store, every item is polled here from its start, so a scan after the first would find nothing to
   * renew or adopt: only a first scan that failed is tried again.
   */
  const scans = createRepeatedPass({
    pass: scan,
    failed: (error) => logger.error({ err: error }, "tracking scan failed; next one in a while"),
    everyMs: held.shared ? scanIntervalMs : undefined,
    retryMs: scanIntervalMs,
  });

  async function firstScan(): Promise<void> {
    await scans.start();
    logger.info({ items: live.size }, "tracker started");
  }

  const peek = (item: TrackedItem): Promise<void> =>
    peekForWebhook(item, { getApiKey: deps.getApiKey, read: reads.read, announce, history: deps.history, logger, now, cardGraceMs });

  const newItem = (input: TrackInput, origin: TrackedItem["origin"]): TrackedItem =>
    newTrackedItem(input, origin, now(), { orderHorizonMs, broadcastMarginMs: marginMs });

  return {
    async start(options) {
      stopped = false;
      reads.open();
      polls.start();
      if (!options?.inBackground) return firstScan();
      track(firstScan().catch((error: unknown) => logger.error({ err: error }, "picking up the stored tracked items failed; trying again in a while")));
    },

    async stop() {
      stopped = true;
      reads.abortAll();
      const scanned = scans.stop();
      const keys = [...live.keys()];
      live.clear();
      unsaved.clear();
      graced.clear();
      await Promise.allSettled([scanned, polls.stop(), ...inFlight]);
      // Handed over at once: another process (or this one restarted) need not wait for the leases to run out.
      const released = await Promise.allSettled(keys.map((key) => held.release(key)));
      for (const r of released) if (r.status === "rejected") logger.warn({ err: r.reason }, "giving a tracking lease up failed; it runs out by itself");
    },

    async track(input) {
      const key = itemKey(input.chatId, input.kind, input.id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        let item: TrackedItem;
        graced.delete(key);
        if (existing) {
          item = withTrackInput(existing, input);
        } else if (input.status !== undefined && isFinished(input.kind, input.status)) {
          // The card shows the end already; the end is still announced (the history, the notice): the card needs no edit.
          const { status: _shown, ...unannounced } = newItem(input, "bot");
          item = unannounced;
        } else {
          item = newItem(input, "bot");
          if (input.status !== undefined) {
            // The card already shows it: remember it as announced, do not send it again.
            await announced.mark({ chatId: input.chatId, kind: input.kind, id: input.id, status: input.status });
          }
        }
        const delay = item.pendingCard ? cardGraceMs : pace.minDelayMs;
        item = { ...item, dueAtMs: now() + delay };
        await items.set(key, item);
        // Polled here unless another live process holds it already (it reads the new card from the store).
        if (live.has(key) || (await held.hold(key))) schedule(item, delay);
      });
    },

    async cardShown({ chatId, kind, id, cardMessageId, status }) {
      const key = itemKey(chatId, kind, id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        if (!existing) return;
        // The first card after a confirm announces its status: mark it before the item says so. Not an end: that is
        // announced by the next read (the history's status, the notice that replies to this card, a reminder).
        const announces = existing.status === undefined && !isFinished(kind, status);
        if (announces) await announced.mark({ chatId, kind, id, status });
        const item: TrackedItem = {
          ...withoutPendingCard(existing),
          ...(cardMessageId === undefined ? {} : { cardMessageId, cardStatus: status }),
          ...(announces ? { status } : {}),
          // The first read waited for this card; it is due now for whoever holds the item.
          ...(existing.pendingCard ? { dueAtMs: now() + pace.minDelayMs } : {}),
        };
        await items.set(key, item);
        const entry = live.get(key);
        if (!entry) return;
        if (existing.pendingCard) schedule(item, pace.minDelayMs);
        else live.set(key, { item });
      });
    },

    async cardNotShown({ chatId, kind, id }) {
      const key = itemKey(chatId, kind, id);
      await mutex.run(key, async () => {
        const existing = live.get(key)?.item ?? (await items.get(key));
        if (!existing?.pendingCard) return;
        const item = { ...withoutPendingCard(existing), dueAtMs: now() };
        await items.set(key, item);
        if (live.has(key)) schedule(item, 0);
      });
    },

    async hint({ chatId, kind, id, verified }) {
      if (verified) pace.webhookVerified(chatId, now());
      const key = itemKey(chatId, kind, id);
      if (!live.has(key)) {
        const stored = await items.get(key);
        if (!(await held.hold(key))) {
          if (stored) await peek(stored);
          return;
        }
        const mine = stored ? undefined : await deps.history?.get(chatId, kind, id);
        const item = stored ?? newItem({ chatId, kind, id, ...(mine ? { status: mine.status } : {}) }, mine ? "bot" : "hint");
        if (!stored && !mine && firstSightGraceMs > 0 && (await deps.confirmationInFlight?.(chatId))) {
          // Stored before the hint returns (the webhook's delivery ends with it), so a restart still reads it.
          await mutex.run(key, async () => {
            if (live.has(key) || (await items.get(key))) return;
            const due = { ...item, dueAtMs: now() + firstSightGraceMs };
            await items.set(key, due);
            graced.add(key);
            logger.info({ chatId, id, graceMs: firstSightGraceMs }, "first sight held back: a confirmation of the account is in flight");
            schedule(due, firstSightGraceMs);
          });
          return;
        }
        await mutex.run(key, () => {
          if (!live.has(key)) {
            live.set(key, { item });
            if (!stored) unsaved.add(key);
          }
          return Promise.resolve();
        });
      }
      if (graced.has(key)) return;
      // Re-read now, serialized with any poll of the same item, outside the limits: a webhook said something changed.
      const p = mutex.run(key, () => poll(key, reads.read));
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
