import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { StoreBackend } from "../store/types.js";
import { createUpdateQueue, type UpdateSupplier } from "./update-queue.js";

/** What the inbox needs of a Telegram update: its id. The rest is stored and handed on as received. */
export interface UpdateLike {
  update_id: number;
}

export type UpdateAcceptResult = "accepted" | "duplicate";

export interface UpdateInbox<U extends UpdateLike> {
  /**
   * Marks the update id as seen (atomic across processes), stores the update
   * and queues it here; resolves once stored, so the caller may answer 200.
   * An id seen in the last `seenTtlMs` is a duplicate: answered, never handled again.
   */
  accept(update: U): Promise<UpdateAcceptResult>;
  /** Where the runner pulls updates from: accepted ones, then those taken over from the store. */
  readonly supplier: UpdateSupplier<U>;
  /** The update was handled (or failed for good): forget it. */
  done(update: U): Promise<void>;
  /** Takes over stored updates nobody is handling (a crash, a dead replica), now and every `sweepIntervalMs`. */
  start(): Promise<void>;
  /** Stops the sweeps and lease renewals; gives up the claims on updates not yet done, so a restart takes them at once. */
  stop(): Promise<void>;
}

export interface UpdateInboxDeps {
  store: Pick<StoreBackend, "namespace" | "claimLease" | "releaseLease">;
  /** This process, as in `createLeases`. */
  owner: string;
  logger: Logger;
  metrics?: Metrics;
  /** Telegram redelivers for far less than a day. Default 24 h. */
  seenTtlMs?: number;
  /** A process handling an update holds it this long and renews it at a third of it. Default 30 s. */
  runLeaseMs?: number;
  /** How often stored updates are looked at for takeover. Default 10 s. */
  sweepIntervalMs?: number;
}

const DAY_MS = 24 * 3600_000;

/** The id as a store key that sorts like the number (update ids are positive and below 2^53). */
const keyOf = (updateId: number): string => String(updateId).padStart(16, "0");
const seenKey = (updateId: number) => `telegram-update-seen:${updateId}`;
const runKey = (updateId: number) => `telegram-update-run:${updateId}`;

function readStored(value: unknown): UpdateLike | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { update } = value as { update?: unknown };
  if (typeof update !== "object" || update === null) return undefined;
  return Number.isSafeInteger((update as { update_id?: unknown }).update_id) ? (update as UpdateLike) : undefined;
}

/**
 * Telegram's updates in webhook mode, acknowledged before they are handled
 * and handled once. The seen mark (a set-if-absent with expiry, through the
 * store's atomic leases with a fresh owner) drops a redelivery across every
 * process on the store; the stored copy survives a crash; a per-update run
 * lease, renewed while handled, lets exactly one live process handle it and
 * another take it over once the lease runs out.
 */
export function createUpdateInbox<U extends UpdateLike>(deps: UpdateInboxDeps): UpdateInbox<U> {
  const { store, owner } = deps;
  const pending = store.namespace("telegram-updates");
  const seenTtlMs = deps.seenTtlMs ?? DAY_MS;
  const runLeaseMs = deps.runLeaseMs ?? 30_000;
  const sweepIntervalMs = deps.sweepIntervalMs ?? 10_000;
  const log = deps.logger.child({ module: "telegram-update-inbox" });
  const queue = createUpdateQueue<U>();
  /** Ids this process holds a run lease on (queued or being handled). */
  const held = new Set<number>();
  let renewTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  async function hold(update: U): Promise<boolean> {
    const id = update.update_id;
    if (held.has(id)) return false;
    held.add(id);
    try {
      if (await store.claimLease(runKey(id), owner, runLeaseMs)) return true;
    } catch (error) {
      held.delete(id);
      throw error;
    }
    held.delete(id);
    return false;
  }

  async function renew(): Promise<void> {
    for (const id of held) {
      // A lost renewal only risks a second handling after `runLeaseMs`; the next round tries again.
      await store.claimLease(runKey(id), owner, runLeaseMs).catch((err: unknown) => log.warn({ err, updateId: id }, "could not renew an update's lease"));
    }
  }

  async function sweep(): Promise<void> {
    const stored: U[] = [];
    for await (const [key, value] of pending.entries()) {
      // Stored by `accept` from a U: read back as one.
      const update = readStored(value) as U | undefined;
      if (update === undefined) {
        // Nothing to hand to the bot, ever: keeping it would only be read again at every sweep.
        log.warn({ key }, "unreadable stored update discarded");
        await pending.delete(key);
      } else if (!held.has(update.update_id)) stored.push(update);
    }
    // Oldest first: a chat's updates keep their order as far as they can.
    stored.sort((a, b) => a.update_id - b.update_id);
    for (const update of stored) {
      if (await hold(update)) {
        log.info({ updateId: update.update_id }, "taking over a stored update nobody is handling");
        deps.metrics?.inc("telegram_updates_total", { outcome: "taken_over" });
        queue.push(update);
      }
    }
  }

  function sweepSafely(): Promise<void> {
    sweeping ??= sweep()
      .catch((err: unknown) => log.warn({ err }, "could not look for stored updates"))
      .finally(() => (sweeping = undefined));
    return sweeping;
  }

  return {
    supplier: queue,
    async accept(update) {
      const id = update.update_id;
      // A fresh owner: the claim succeeds only when nobody marked this id before (or the mark expired).
      const mark = randomBytes(9).toString("base64url");
      if (!(await store.claimLease(seenKey(id), mark, seenTtlMs))) {
        deps.metrics?.inc("telegram_updates_total", { outcome: "duplicate" });
        return "duplicate";
      }
      try {
        await pending.set(keyOf(id), { update, receivedAt: Date.now() });
      } catch (error) {
        // Not stored: forget the mark so Telegram's redelivery (after our 500) is taken.
        await store.releaseLease(seenKey(id), mark).catch((err: unknown) => log.error({ err, updateId: id }, "could not release an update's seen mark"));
        throw error;
      }
      deps.metrics?.inc("telegram_updates_total", { outcome: "accepted" });
      // Stored: from here on a failure only delays it until a sweep (here or elsewhere) takes it.
      try {
        if (await hold(update)) queue.push(update);
      } catch (err) {
        log.warn({ err, updateId: id }, "could not claim an accepted update; a sweep will take it");
      }
      return "accepted";
    },
    async done(update) {
      const id = update.update_id;
      try {
        await pending.delete(keyOf(id));
      } finally {
        // Released even when the delete failed: the copy left behind is then taken by a sweep again.
        held.delete(id);
        await store.releaseLease(runKey(id), owner);
      }
    },
    async start() {
      await sweep();
      renewTimer = setInterval(() => void renew(), Math.max(10, Math.floor(runLeaseMs / 3)));
      sweepTimer = setInterval(() => void sweepSafely(), sweepIntervalMs);
    },
    async stop() {
      clearInterval(renewTimer);
      clearInterval(sweepTimer);
      await sweeping;
      queue.close();
      const unfinished = [...held];
      held.clear();
      await Promise.all(
        unfinished.map((id) => store.releaseLease(runKey(id), owner).catch((err: unknown) => log.warn({ err, updateId: id }, "could not release an update's lease"))),
      );
    },
  };
}
