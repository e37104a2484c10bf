import type { Logger } from "pino";
import { z } from "zod";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import { createDraftStore } from "../../shared/broadcasts/draft.js";
import { isQuoteExpired } from "../../shared/orders/quote.js";
import { createQuoteStore } from "../../shared/orders/quote-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * While a quote or a refused (402) confirmation waits for money, the chat's
 * balance is read on a backoff until it covers the amount, and the chat is
 * told once. Watches are stored, so a restart resumes them; the announcement
 * goes out under an id derived from the watch, so a crash between announcing
 * and forgetting announces nothing twice (the push queue drops a known id).
 */

export const WATCH_KINDS = ["order", "broadcast"] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

export const balanceWatchSchema = z.object({
  kind: z.enum(WATCH_KINDS),
  /** quoteId (order) or draftId (broadcast): the thing that is retried with its own key. */
  refId: z.string(),
  chatId: z.number().int(),
  /** What the balance must reach, exact sun. */
  requiredSun: z.string().regex(/^\d+$/),
  /** quote: the quote was shown short of money (Confirm comes back); refused: a 402 (Retry comes back). */
  origin: z.enum(["quote", "refused"]),
  startedAtMs: z.number().int(),
  untilMs: z.number().int(),
  nextCheckMs: z.number().int(),
  delayMs: z.number().int().positive(),
  locale: z.string().optional(),
});
export type BalanceWatch = z.infer<typeof balanceWatchSchema>;

export interface WatchInput {
  kind: WatchKind;
  refId: string;
  chatId: number;
  requiredSun: bigint | string;
  origin: BalanceWatch["origin"];
  /** When the thing itself stops being usable (quote or transaction expiry). */
  untilMs: number;
  locale?: string;
}

export interface CreditedEvent {
  watch: BalanceWatch;
  availableSun: number;
  /** The deposit (exact sun) the account watch saw in this reading: the one message says both. */
  depositSun?: bigint;
  /** Stable for one watch: the push job id that makes the announcement at-most-once. */
  announcementId: string;
}

export interface BalanceWatcherDeps {
  store: StoreBackend;
  jobs: JobsEngine;
  service: Pick<ServiceClient, "getBalance">;
  getApiKey: (chatId: number) => Promise<string | undefined>;
  /** False once the quote or draft was placed, cancelled or expired: the watch ends silently. */
  isWanted: (watch: BalanceWatch) => Promise<boolean>;
  onCredited: (event: CreditedEvent) => Promise<void>;
  logger: Logger;
  now?: () => number;
  /** First read after a watch starts; then doubling. Default 3 s. */
  firstDelayMs?: number;
  /** Cap of the backoff: keeps "credited" within about this long of the deposit. Default 30 s. */
  maxDelayMs?: number;
  /** No watch outlives this, whatever its own end. Default 30 min. */
  maxWatchMs?: number;
  /**
   * With the account watch (features/balance/balance-account-watch.ts): each check runs inside its
   * lock of the chat, and the balance is read through its judgment, so one
   * deposit is judged once and told once (merged into "credited" when it
   * covers the watch). Without them the watcher reads the balance itself.
   */
  exclusive?: (chatId: number, fn: () => Promise<void>) => Promise<void>;
  readBalance?: (chatId: number, apiKey: string, claim: DepositClaim, signal: AbortSignal) => Promise<number>;
}

/** Offered a deposit the account watch saw: true when the caller told the chat (the deposit notice is then not sent). */
export type DepositClaim = (depositSun: bigint, availableSun: number) => Promise<boolean>;

export interface BalanceWatcher {
  /** Starts (or restarts, with a fresh backoff) the watch of one quote or draft. */
  watch(input: WatchInput): Promise<void>;
  /** Ends a watch (the quote was cancelled or placed). */
  unwatch(kind: WatchKind, refId: string): Promise<void>;
  /** The chat's watches, e.g. to size the advice of /balance. */
  watchesOf(chatId: number): Promise<BalanceWatch[]>;
  /**
   * A deposit the account watch saw (inside its lock of the chat): every
   * watch of the chat it covers is announced, the first one with the
   * deposit. True when one was.
   */
  offer(chatId: number, availableSun: number, depositSun: bigint): Promise<boolean>;
  /** Loads the stored watches and schedules them. */
  start(): Promise<void>;
  /** Cancels timers and waits for checks in flight. Idempotent. */
  stop(): Promise<void>;
}

export const BALANCE_WATCH_DEFAULTS = { firstDelayMs: 3_000, maxDelayMs: 30_000, maxWatchMs: 30 * 60_000 } as const;

const keyOf = (kind: WatchKind, refId: string): string => `${kind}:${refId}`;
/** Stable for one watch: the push queue drops a known id, so "credited" goes out once. */
const announcementIdOf = (watch: BalanceWatch): string => `topup:${keyOf(watch.kind, watch.refId)}:${watch.startedAtMs}`;

/** The wait after `delayMs`: doubling, never above the cap. */
export function nextDelayMs(delayMs: number, maxDelayMs: number): number {
  return Math.min(delayMs * 2, maxDelayMs);
}

/**
 * When the balance is read, as offsets from the watch's start, for a watch
 * that never sees the money: the schedule `reschedule` follows, written out
 * so its bounds (first read, largest gap, number of reads) can be checked.
 * A read at or after the end would come too late to use, so there is none.
 */
export function checkOffsetsMs(firstDelayMs: number, maxDelayMs: number, lifetimeMs: number): number[] {
  const offsets: number[] = [];
  let delay = firstDelayMs;
  for (let at = firstDelayMs; at < lifetimeMs; at += delay) {
    offsets.push(at);
    delay = nextDelayMs(delay, maxDelayMs);
  }
  return offsets;
}

/** A watch ends by itself once its quote or draft can no longer be sent under its key: read from the stored quotes and drafts. */
export function whileStillSendable(deps: { store: StoreBackend; logger: Logger; now?: () => number }): BalanceWatcherDeps["isWanted"] {
  const now = deps.now ?? Date.now;
  const quotes = createQuoteStore(deps);
  const drafts = createDraftStore({ ...deps, now });
  return async (watch) => {
    if (watch.kind === "order") {
      const quote = await quotes.get(watch.refId);
      return quote !== undefined && quote.state === "open" && !isQuoteExpired(quote, now());
    }
    const draft = await drafts.get(watch.refId);
    return draft !== undefined && draft.state === "open" && draft.summary.expirationMs > now();
  };
}

export function createBalanceWatcher(deps: BalanceWatcherDeps): BalanceWatcher {
  const logger = deps.logger.child({ component: "balance-watcher" });
  const now = deps.now ?? Date.now;
  const firstDelayMs = deps.firstDelayMs ?? BALANCE_WATCH_DEFAULTS.firstDelayMs;
  const maxDelayMs = deps.maxDelayMs ?? BALANCE_WATCH_DEFAULTS.maxDelayMs;
  const maxWatchMs = deps.maxWatchMs ?? BALANCE_WATCH_DEFAULTS.maxWatchMs;
  const mutex = createKeyedMutex();
  let stopped = true;
  /** Aborted by stop(): a shutdown does not wait for a slow service. */
  let reads = new AbortController();
  // Each watch is a timed job, due at its next read. No lease and no rescan: a watch is read by the process that
  // started it (or loaded it at start), inside the account watch's lock of the chat when there is one.
  const watches = deps.jobs.define<BalanceWatch>({
    kind: "balance-watch",
    namespace: "balance-watches",
    schema: balanceWatchSchema,
    version: 1,
    logger,
    now,
    dueAtMs: (watch) => watch.nextCheckMs,
    handlerKeepsRecords: true,
    async run(watch, key) {
      const locked = () => mutex.run(key, () => check(key));
      // The chat's lock first, then the watch's: the account watch takes them in this order too.
      try {
        await (deps.exclusive ? deps.exclusive(watch.chatId, locked) : locked());
      } catch (error) {
        // A store or announcer fault must not end the watch silently: read again later.
        logger.warn({ err: error, key }, "balance check failed; will try again");
        try {
          const current = await watches.get(key);
          if (current) await reschedule(current);
        } catch (again) {
          logger.warn({ err: again, key }, "balance watch could not be rescheduled");
        }
      }
    },
  });

  const forget = (key: string) => watches.cancel(key);

  async function reschedule(watch: BalanceWatch): Promise<void> {
    const at = now();
    const delayMs = nextDelayMs(watch.delayMs, maxDelayMs);
    // A read at or after the end would come too late to use.
    if (at + delayMs >= watch.untilMs) {
      logger.info({ kind: watch.kind, refId: watch.refId }, "balance watch ended without a top-up");
      return forget(keyOf(watch.kind, watch.refId));
    }
    const next: BalanceWatch = { ...watch, delayMs, nextCheckMs: at + delayMs };
    await watches.schedule(keyOf(watch.kind, watch.refId), next, Math.max(1, next.untilMs - at + 60_000));
  }

  async function check(key: string): Promise<void> {
    if (stopped) return;
    const watch = await watches.get(key);
    if (!watch) return;
    if (now() >= watch.untilMs || !(await deps.isWanted(watch))) return forget(key);
    const apiKey = await deps.getApiKey(watch.chatId);
    if (apiKey === undefined) return forget(key);
    let availableSun: number;
    let credited = false;
    const claim: DepositClaim = async (depositSun, available) => {
      if (BigInt(available) < BigInt(watch.requiredSun) || !(await deps.isWanted(watch))) return false;
      await deps.onCredited({ watch, availableSun: available, depositSun, announcementId: announcementIdOf(watch) });
      credited = true;
      return true;
    };
    try {
      availableSun = deps.readBalance
        ? await deps.readBalance(watch.chatId, apiKey, claim, reads.signal)
        : (await deps.service.getBalance(apiKey, { signal: reads.signal })).availableSun;
    } catch (error) {
      if (stopped) return;
      if (ServiceError.isInstance(error) && error.isKeyRejected) return forget(key);
      // No wallet yet (404) or a hiccup: the deposit may still come.
      logger.debug({ err: error, key }, "balance unreadable during a watch");
      return reschedule(watch);
    }
    if (!credited) {
      if (BigInt(availableSun) < BigInt(watch.requiredSun)) return reschedule(watch);
      // The user may have confirmed (or cancelled) while the balance was read: no "credited" after the fact.
      if (!(await deps.isWanted(watch))) return forget(key);
      await deps.onCredited({ watch, availableSun, announcementId: announcementIdOf(watch) });
    }
    logger.info({ kind: watch.kind, refId: watch.refId, chatId: watch.chatId }, "top-up credited; chat told");
    await forget(key);
  }

  return {
    async watch(input) {
      const key = keyOf(input.kind, input.refId);
      const at = now();
      const untilMs = Math.min(input.untilMs, at + maxWatchMs);
      if (untilMs <= at) return;
      const watch: BalanceWatch = {
        kind: input.kind,
        refId: input.refId,
        chatId: input.chatId,
        requiredSun: String(input.requiredSun),
        origin: input.origin,
        startedAtMs: at,
        untilMs,
        nextCheckMs: at + firstDelayMs,
        delayMs: firstDelayMs,
        ...(input.locale === undefined ? {} : { locale: input.locale }),
      };
      await mutex.run(key, () => watches.schedule(key, watch, untilMs - at + 60_000));
    },
    async unwatch(kind, refId) {
      const key = keyOf(kind, refId);
      await mutex.run(key, () => forget(key));
    },
    async offer(chatId, availableSun, depositSun) {
      const keys: string[] = [];
      for await (const [key, w] of watches.list()) if (w.chatId === chatId) keys.push(key);
      let told = false;
      for (const key of keys) {
        await mutex.run(key, async () => {
          const watch = await watches.get(key);
          if (!watch || now() >= watch.untilMs || BigInt(availableSun) < BigInt(watch.requiredSun)) return;
          if (!(await deps.isWanted(watch))) return forget(key);
          await deps.onCredited({ watch, availableSun, announcementId: announcementIdOf(watch), ...(told ? {} : { depositSun }) });
          told = true;
          logger.info({ kind: watch.kind, refId: watch.refId, chatId }, "top-up credited by a deposit the account watch saw; chat told");
          await forget(key);
        });
      }
      return told;
    },
    async watchesOf(chatId) {
      const found: BalanceWatch[] = [];
      for await (const [, w] of watches.list()) if (w.chatId === chatId && w.untilMs > now()) found.push(w);
      return found;
    },
    async start() {
      stopped = false;
      reads = new AbortController();
      await watches.start();
    },
    async stop() {
      stopped = true;
      reads.abort();
      await watches.stop();
    },
  };
}
