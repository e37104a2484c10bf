import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { StoreBackend } from "../store/types.js";
import { createUpdateQueue, type UpdateSupplier } from "./update-queue.js";

/** What the inbox needs of a Telegram update: its id. The rest is stored and handed on as received. */
export interface UpdateLike {
  update_id: number;
}

export type UpdateAcceptResult = "accepted" | "duplicate";

/** Thrown by `accept` while another accept of the same id is half-way (or died half-way): answer 5xx, Telegram sends it again. */
export class UpdateInProgressError extends Error {
  constructor(readonly updateId: number) {
    super(`update ${String(updateId)} is being accepted elsewhere; not acknowledged`);
    this.name = "UpdateInProgressError";
  }
}

export interface UpdateInbox<U extends UpdateLike> {
  /**
   * Stores the update (an atomic insert across processes) and queues it here;
   * resolves once stored, so the caller may answer 200. An id stored and not
   * yet done, or done in the last `seenTtlMs`, is a duplicate: answered, never
   * handled again. Throws `UpdateInProgressError` while another accept of the
   * id has not finished (or died before storing it): not acknowledged.
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
/** How long a redelivery waits for a racing accept to store the update before it is refused (5xx, sent again). */
const IN_PROGRESS_LOOKS = 40;
const IN_PROGRESS_LOOK_MS = 50;

/** The id as a store key that sorts like the number (update ids are positive and below 2^53). */
const keyOf = (updateId: number): string => String(updateId).padStart(16, "0");
const runKey = (updateId: number) => `telegram-update-run:${updateId}`;

function readStored(value: unknown): UpdateLike | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { update } = value as { update?: unknown };
  if (typeof update !== "object" || update === null) return undefined;
  return Number.isSafeInteger((update as { update_id?: unknown }).update_id) ? (update as UpdateLike) : undefined;
}

/**
 * Telegram's updates in webhook mode, acknowledged before they are handled
 * and handled once. Accepting takes the update's run lease first, then
 * inserts the stored copy only if absent: the copy is the duplicate check
 * while the update waits or runs, and survives a crash (a sweep takes it once
 * the dead process's lease ran out). Done writes a seen mark (kept
 * `seenTtlMs`) before it deletes the copy, and an accept that inserted after
 * that delete finds the mark and takes its copy back: a redelivery after
 * handling is dropped too. No step leaves an acknowledged update unstored.
 */
export function createUpdateInbox<U extends UpdateLike>(deps: UpdateInboxDeps): UpdateInbox<U> {
  const { store, owner } = deps;
  const pending = store.namespace("telegram-updates");
  const seen = store.namespace("telegram-updates-seen");
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

  async function letGo(id: number): Promise<void> {
    held.delete(id);
    await store.releaseLease(runKey(id), owner);
  }

  /** Whether the id's copy is stored or it was done, waiting a moment for an accept half-way elsewhere to store it. */
  async function storedOrDone(key: string): Promise<boolean> {
    for (let look = 0; look < IN_PROGRESS_LOOKS; look += 1) {
      if ((await pending.get(key)) !== undefined || (await seen.get(key)) !== undefined) return true;
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_LOOK_MS));
    }
    return false;
  }

  /**
   * Stores the copy unless one is there: a bare insert first (the copy has no
   * expiry, so "absent" is null), and only when that fails a read, for a row
   * that holds no update (unreadable), which is replaced.
   */
  async function insertIfAbsent(key: string, value: { update: U; receivedAt: number }): Promise<boolean> {
    if (await pending.compareAndSet(key, null, value)) return true;
    const current = await pending.getVersioned(key);
    return current.value === undefined && (await pending.compareAndSet(key, current.version, value));
  }

  function duplicate(): "duplicate" {
    deps.metrics?.inc("telegram_updates_total", { outcome: "duplicate" });
    return "duplicate";
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
      } else if ((await seen.get(key)) !== undefined) {
        // Done, then the process died before deleting its copy.
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
      const key = keyOf(id);
      if (!(await hold(update))) {
        // Someone holds it: handling it (its copy is stored), or accepting it right now, or dead before storing it.
        if (await storedOrDone(key)) return duplicate();
        throw new UpdateInProgressError(id);
      }
      try {
        if (!(await insertIfAbsent(key, { update, receivedAt: Date.now() }))) {
          await letGo(id);
          return duplicate();
        }
        if ((await seen.get(key)) !== undefined) {
          // Handled and done before this redelivery: the copy just stored goes again (held, so no sweep took it).
          await pending.delete(key);
          await letGo(id);
          return duplicate();
        }
      } catch (error) {
        await letGo(id).catch((err: unknown) => log.warn({ err, updateId: id }, "could not release an update's lease"));
        throw error;
      }
      deps.metrics?.inc("telegram_updates_total", { outcome: "accepted" });
      queue.push(update);
      return "accepted";
    },
    async done(update) {
      const id = update.update_id;
      try {
        // The mark first: an accept that stores a copy after the delete below finds it.
        await seen.set(keyOf(id), 1, seenTtlMs);
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
