import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import { groupCalls } from "../group-calls.js";
import { deleteMany, getMany, setMany } from "../store/batch.js";
import { createLeases } from "../store/lease.js";
import { createRepeatedPass } from "../jobs/repeated-pass.js";
import type { StoreBackend } from "../store/types.js";
import { createUpdateQueue, type UpdateSupplier } from "./update-queue.js";

/** What the inbox needs of a Telegram update: its id. The rest is stored sealed and handed on as received. */
/** Encrypts the stored copy of each update under the store's key (the app's vault): an update can carry a pasted API key. */
export interface UpdateSealer {
  seal(plaintext: string, id: string, field: string): string;
  open(sealed: string, id: string, field: string): { plaintext: string };
}

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
  store: Pick<StoreBackend, "namespace" | "claimLease" | "releaseLease" | "claimLeases" | "releaseLeases">;
  /** This process, as in `createLeases`. */
  owner: string;
  /**
   * Seals every stored copy: an update holds whatever the user sent (an API
   * key, a webhook secret, a private key pasted by mistake), and the store's
   * journal (SQLite WAL, Redis AOF, Postgres WAL) keeps what was written long
   * after the copy is deleted.
   */
  vault: UpdateSealer;
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
/** Updates a group of accepts or dones takes at most: each store call of a group is one synchronous SQLite transaction. */
const MAX_GROUP = 100;

/** The id as a store key that sorts like the number (update ids are positive and below 2^53). */
const keyOf = (updateId: number): string => String(updateId).padStart(16, "0");
const runKey = (updateId: number) => `telegram-update-run:${updateId}`;

/** The vault field of a stored update: it opens as nothing else, and nothing else opens as it. */
const SEALED_FIELD = "telegram-update";

/** What is stored under an update's key: the whole update sealed (bound to that key), and when it came. */
interface StoredUpdate {
  sealed: string;
  receivedAt: number;
}

/** A stored copy's update, or undefined when it cannot be read (damaged, another key's, sealed under a retired vault key). */
function readStored(vault: Pick<UpdateSealer, "open">, key: string, value: unknown): UpdateLike | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { sealed, update: plain } = value as { sealed?: unknown; update?: unknown };
  let update: unknown = plain;
  if (typeof sealed === "string") {
    try {
      update = JSON.parse(vault.open(sealed, key, SEALED_FIELD).plaintext);
    } catch {
      return undefined;
    }
  }
  // `update` in the clear: a copy an earlier version stored; handed on once, then deleted like any other.
  if (typeof update !== "object" || update === null) return undefined;
  const id = (update as { update_id?: unknown }).update_id;
  return Number.isSafeInteger(id) && keyOf(id as number) === key ? (update as UpdateLike) : undefined;
}

/** What a grouped accept found for one update it was given. */
type Claimed = UpdateAcceptResult | "held-elsewhere";

/**
 * Telegram's updates in webhook mode, acknowledged before they are handled
 * and handled once. Accepting takes the update's run lease first, then
 * stores a copy, sealed by the vault whole (nothing depends on recognising
 * what in it is a secret), unless a readable one is there: the copy is the duplicate
 * check while the update waits or runs, and survives a crash (a sweep takes
 * it once the dead process's lease ran out). Done writes a seen mark (kept
 * `seenTtlMs`) before it deletes the copy, and an accept looks for the mark
 * only after its copy is written, so one that raced a done (a lease run out
 * mid-handling) takes its copy back: a redelivery after handling is dropped
 * too. No step leaves an acknowledged update unstored.
 *
 * Accepts arriving together are grouped, and so are dones: one lease claim,
 * one copy write and two reads for a group of accepts; one mark write, one
 * delete and one release for a group of dones (on SQLite, a transaction
 * each), where one each per update made the store most of a webhook update's
 * cost.
 */
export function createUpdateInbox<U extends UpdateLike>(deps: UpdateInboxDeps): UpdateInbox<U> {
  const { store, owner, vault } = deps;
  const leases = createLeases({ store, owner });
  const pending = store.namespace("telegram-updates");
  const seen = store.namespace("telegram-updates-seen");
  const seenTtlMs = deps.seenTtlMs ?? DAY_MS;
  const runLeaseMs = deps.runLeaseMs ?? 30_000;
  const sweepIntervalMs = deps.sweepIntervalMs ?? 10_000;
  const log = deps.logger.child({ module: "telegram-update-inbox" });
  const queue = createUpdateQueue<U>();
  /** Ids this process holds a run lease on, or is claiming one for (queued, being handled, being accepted). */
  const held = new Set<number>();
  let renewTimer: NodeJS.Timeout | undefined;

  const claim = (ids: readonly number[]): Promise<boolean[]> => leases.claimMany(ids.map(runKey), runLeaseMs);

  /** Forgets the ids here and gives their leases up in the store. */
  async function letGo(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    for (const id of ids) held.delete(id);
    await leases.releaseMany(ids.map(runKey));
  }

  /** `letGo` where a failure only delays a takeover (the lease runs out by itself): logged, not thrown. */
  function letGoQuietly(ids: readonly number[]): Promise<void> {
    return letGo(ids).catch((err: unknown) => log.warn({ err, updateIds: ids }, "could not release updates' leases"));
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
   * Claims, stores and checks a group of updates, each held here already (so
   * no two of a group share an id). Throws when the store fails: the caller
   * lets the whole group go, and Telegram delivers each again.
   */
  async function acceptGroup(updates: U[]): Promise<Claimed[]> {
    const claimed = await claim(updates.map((u) => u.update_id));
    const results: Claimed[] = claimed.map((mine) => (mine ? "accepted" : "held-elsewhere"));
    const mine = updates.flatMap((u, i) => (claimed[i] ? [{ i, key: keyOf(u.update_id), update: u }] : []));
    // Held, so a readable copy can only be one a dead process left: a duplicate, which a sweep hands on.
    const copies = await getMany(
      pending,
      mine.map((m) => m.key),
    );
    const stored = mine.filter((m, j) => readStored(vault, m.key, copies[j]) === undefined);
    const receivedAt = Date.now();
    await setMany(
      pending,
      stored.map(({ key, update }) => ({ key, value: { sealed: vault.seal(JSON.stringify(update), key, SEALED_FIELD), receivedAt } satisfies StoredUpdate })),
    );
    const marks = await getMany(
      seen,
      stored.map((m) => m.key),
    );
    // Handled and done before this redelivery: the copies just stored go again (held, so no sweep took them).
    await deleteMany(
      pending,
      stored.filter((_, j) => marks[j] !== undefined).map((m) => m.key),
    );
    const taken = new Set(stored.filter((_, j) => marks[j] === undefined).map((m) => m.i));
    const duplicates = mine.filter((m) => !taken.has(m.i));
    for (const { i } of duplicates) results[i] = "duplicate";
    await letGoQuietly(duplicates.map((m) => m.update.update_id));
    return results;
  }

  const accepts = groupCalls(acceptGroup, { maxBatch: MAX_GROUP });

  /** Marks first: an accept that stores a copy after the delete finds them. Released even when a write failed (a sweep takes the copy again). */
  const dones = groupCalls(
    async (updates: U[]): Promise<undefined[]> => {
      const ids = updates.map((u) => u.update_id);
      const keys = ids.map(keyOf);
      try {
        await setMany(
          seen,
          keys.map((key) => ({ key, value: 1, ttlMs: seenTtlMs })),
        );
        await deleteMany(pending, keys);
      } finally {
        await letGo(ids);
      }
      return updates.map(() => undefined);
    },
    { maxBatch: MAX_GROUP },
  );

  function duplicate(): "duplicate" {
    deps.metrics?.inc("telegram_updates_total", { outcome: "duplicate" });
    return "duplicate";
  }

  async function renew(): Promise<void> {
    const ids = [...held];
    if (ids.length === 0) return;
    // A lost renewal only risks a second handling after `runLeaseMs`; the next round tries again.
    await claim(ids).catch((err: unknown) => log.warn({ err, updates: ids.length }, "could not renew updates' leases"));
  }

  async function sweep(): Promise<void> {
    const stored: U[] = [];
    for await (const [key, value] of pending.entries()) {
      // Stored by `accept` from a U: read back as one.
      const update = readStored(vault, key, value) as U | undefined;
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
    const free = stored.filter((u) => !held.has(u.update_id));
    if (free.length === 0) return;
    for (const u of free) held.add(u.update_id);
    let claimed: boolean[];
    try {
      claimed = await claim(free.map((u) => u.update_id));
    } catch (error) {
      for (const u of free) held.delete(u.update_id);
      throw error;
    }
    free.forEach((update, i) => {
      if (!claimed[i]) {
        held.delete(update.update_id);
        return;
      }
      log.info({ updateId: update.update_id }, "taking over a stored update nobody is handling");
      deps.metrics?.inc("telegram_updates_total", { outcome: "taken_over" });
      queue.push(update);
    });
  }

  const sweeps = createRepeatedPass({
    pass: sweep,
    failed: (err) => log.warn({ err }, "could not look for stored updates"),
    everyMs: sweepIntervalMs,
  });

  return {
    supplier: queue,
    async accept(update) {
      const id = update.update_id;
      // Someone holds it: handling it (its copy is stored), or accepting it right now, or dead before storing it.
      const heldElsewhere = async () => {
        if (await storedOrDone(keyOf(id))) return duplicate();
        throw new UpdateInProgressError(id);
      };
      if (held.has(id)) return heldElsewhere();
      held.add(id);
      let result: Claimed;
      try {
        result = await accepts.call(update);
      } catch (error) {
        await letGoQuietly([id]);
        throw error;
      }
      if (result === "held-elsewhere") {
        held.delete(id);
        return heldElsewhere();
      }
      if (result === "duplicate") return duplicate();
      deps.metrics?.inc("telegram_updates_total", { outcome: "accepted" });
      queue.push(update);
      return "accepted";
    },
    done: (update) => dones.call(update),
    async start() {
      await sweeps.start();
      renewTimer = setInterval(() => void renew(), Math.max(10, Math.floor(runLeaseMs / 3)));
    },
    async stop() {
      clearInterval(renewTimer);
      await sweeps.stop();
      await Promise.all([accepts.idle(), dones.idle()]);
      queue.close();
      await letGoQuietly([...held]);
    },
  };
}
