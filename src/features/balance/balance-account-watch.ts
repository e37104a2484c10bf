import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { PendingConfirmations } from "../../shared/confirmations/pending-confirmations.js";
import type { HistoryEntry, OrderHistory } from "../../shared/orders/order-history.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import { createKeyedMutex } from "../../platform/store/keyed-mutex.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { lowBalanceThresholdSun, type AlertSettingsStore } from "../../shared/chats/alert-settings.js";
import { accountWatchStateSchema, adoptAccountHistory, countOwnEffect, entryKey, REFUNDED_STATUSES, type AccountWatchState } from "./balance-account-ledger.js";
import type { DepositClaim } from "./top-up-watcher.js";
import { createWatchSchedule, type WatchSchedule } from "./balance-watch-schedule.js";

/**
 * The balance watch of every linked chat: GET /v1/balance on a schedule
 * (idle interval, backoff on failures; the top-up watcher reads through it
 * more often while a quote or a 402 waits), judged against the stored last
 * balance and the bot's own ledger, so the chat hears of deposits, of a
 * balance below its threshold (once per crossing) and of charges the bot
 * did not make. State is stored per chat: a restart compares against the
 * balance read before it. Several chats linked to one account each watch it
 * (each hears its own notices, in its own language, under its own /alerts)
 * against the account's one history, so what any of them spent is the bot's
 * own. See docs/balance-watch.md.
 */

export type WatchEvent =
  | { kind: "deposit"; chatId: number; id: string; depositSun: bigint; balanceSun: bigint }
  | { kind: "low"; chatId: number; id: string; balanceSun: bigint; thresholdSun: bigint }
  | { kind: "foreign"; chatId: number; id: string; droppedSun: bigint; balanceSun: bigint };

export interface AccountWatchDeps {
  store: StoreBackend;
  service: Pick<ServiceClient, "getBalance" | "getBroadcast">;
  chats: Pick<ChatRepository, "open" | "linkedChatIds" | "accountChats">;
  history: Pick<OrderHistory, "page">;
  pending: Pick<PendingConfirmations, "list">;
  settings: Pick<AlertSettingsStore, "get">;
  /** Tells the chat (the notifier, through the push queue; `id` is the job id). */
  announce: (event: WatchEvent) => Promise<void>;
  /** The top-up watcher: a deposit covering a waiting quote or 402 is told there, as one message. */
  topUps?: { offer(chatId: number, availableSun: number, depositSun: bigint): Promise<boolean> };
  /** Part of the default low-balance threshold (keep-charged plans). */
  nextRenewalCostSun?: (chatId: number) => Promise<bigint | undefined>;
  /** One process polls a chat: a lease. Default: always this one. */
  claim?: (key: string, ttlMs: number) => Promise<boolean>;
  logger: Logger;
  now?: () => number;
  /** Between reads of an idle chat. Default 3 min. */
  intervalMs?: number;
  /** When a charge of the bot's own is in flight, the reading is judged this much later. Default 5 s. */
  settleMs?: number;
  /** Cap of the backoff after failed reads. Default 30 min. */
  maxBackoffMs?: number;
  /** Scheduled reads in flight at most. Default 4. */
  concurrency?: number;
  /**
   * Scheduled reads started per second at most, whatever the number of
   * chats: with more than `intervalMs / 1000 * maxReadsPerSecond` chats
   * each is read less often than `intervalMs`. Default 20.
   */
  maxReadsPerSecond?: number;
  /**
   * Chat records the sweep reads per second at most. Each chat found is first read at a random
   * time within `intervalMs` anyway, so nothing is gained by reading them all at once; read at
   * full speed, the 100,000 chats of a large store were half a gigabyte of short-lived objects in
   * the first seconds after a start, and the heap grew with them. Default 1,000.
   */
  sweepRecordsPerSecond?: number;
}

export interface AccountWatch {
  /** A chat was linked (or re-linked): its baseline is read now. */
  linked(chatId: number): void;
  /** The chat was unlinked: no more reads, its state goes. */
  unlinked(chatId: number): Promise<void>;
  /** Runs `fn` inside this chat's lock (the top-up watcher's checks). */
  exclusive(chatId: number, fn: () => Promise<void>): Promise<void>;
  /** A read for the top-up watcher, judged like any other; call it inside `exclusive`. */
  observe(chatId: number, apiKey: string, claim: DepositClaim, signal: AbortSignal): Promise<number>;
  /** Starts the schedule; the linked chats are found by a sweep in the background, which `start` does not wait for. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const ACCOUNT_WATCH_DEFAULTS = { intervalMs: 3 * 60_000, settleMs: 5_000, maxBackoffMs: 30 * 60_000 } as const;

type Outcome = "judged" | "unsettled" | "failed" | "rejected" | "unlinked";

/** A short tag of the link: announcement ids differ per link, so a re-link never reuses a delivered id. */
const tagOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 12);

/**
 * Waits `ms` (nothing when it is not positive); a stop ends the wait at once. On the global timer, not
 * `node:timers/promises` (which the rest of the project uses): its timers are not the global ones, so a
 * virtual clock could not drive the pace, and the pace is checked on one.
 */
function paceSweep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

export function createAccountWatch(deps: AccountWatchDeps): AccountWatch {
  const logger = deps.logger.child({ component: "account-watch" });
  const now = deps.now ?? Date.now;
  const intervalMs = deps.intervalMs ?? ACCOUNT_WATCH_DEFAULTS.intervalMs;
  const settleMs = deps.settleMs ?? ACCOUNT_WATCH_DEFAULTS.settleMs;
  const maxBackoffMs = deps.maxBackoffMs ?? ACCOUNT_WATCH_DEFAULTS.maxBackoffMs;
  const claim = deps.claim ?? (() => Promise.resolve(true));
  const states = createRecordStore({ kv: deps.store.namespace("account-watch"), schema: accountWatchStateSchema, version: 1, logger, name: "account-watch" });
  const locks = createKeyedMutex();
  const failures = new Map<number, number>();
  let reads = new AbortController();
  const sweepRecordsPerSecond = deps.sweepRecordsPerSecond ?? 1_000;

  const schedule: WatchSchedule = createWatchSchedule({
    logger,
    tick: (chatId) => locks.run(String(chatId), () => tick(chatId)),
    ...(deps.concurrency === undefined ? {} : { concurrency: deps.concurrency }),
    ...(deps.maxReadsPerSecond === undefined ? {} : { maxPerSecond: deps.maxReadsPerSecond }),
  });

  async function entriesOf(chatId: number): Promise<HistoryEntry[]> {
    return (await deps.history.page(chatId, 0, Number.MAX_SAFE_INTEGER)).entries;
  }
  /** A confirmation of any chat of the account is a charge of the bot's own on its way. */
  const inFlight = async (family: ReadonlySet<number>): Promise<boolean> => (await deps.pending.list()).some((p) => family.has(p.chatId));
  const idsOf = (entries: readonly HistoryEntry[]): string => entries.map((e) => `${entryKey(e)}=${e.status}`).join(",");

  async function tick(chatId: number): Promise<number | undefined> {
    if (!(await claim(`balance-watch:${chatId}`, intervalMs * 3))) return intervalMs;
    const outcome = await judge(chatId, undefined, reads.signal);
    if (ServiceError.isInstance(outcome.error) && outcome.error.status === 429) {
      // The service is over its limit even after the client's own retries: every chat waits, not just this one.
      schedule.holdFor((outcome.error.retryAfterSec ?? settleMs / 1000) * 1000);
    }
    return delayAfter(chatId, outcome.result);
  }

  function delayAfter(chatId: number, result: Outcome): number | undefined {
    if (result === "unlinked") return undefined;
    if (result === "judged") failures.delete(chatId);
    if (result === "judged" || result === "rejected") return result === "judged" ? intervalMs : maxBackoffMs;
    if (result === "unsettled") return settleMs;
    const n = (failures.get(chatId) ?? 0) + 1;
    failures.set(chatId, n);
    return Math.min(maxBackoffMs, settleMs * 2 ** Math.min(n, 20));
  }

  /**
   * One read, judged. History and pending confirmations are read before and
   * after the balance: if either moved, or a charge of the bot's own is in
   * flight, the reading may or may not include it, and judging waits.
   */
  async function judge(
    chatId: number,
    given: { apiKey: string; claim: DepositClaim } | undefined,
    signal: AbortSignal,
  ): Promise<{ result: Outcome; availableSun?: number; error?: unknown }> {
    const linked = await deps.chats.open(chatId);
    if (!linked) {
      await states.delete(String(chatId));
      return { result: "unlinked" };
    }
    const apiKey = given?.apiKey ?? linked.apiKey;
    const linkTag = tagOf(linked.record.linkId ?? linked.record.linkedAt ?? "link");
    // The history is the account's: what any of its chats spent is the bot's own, and so is what is on its way.
    const accountId = linked.record.accountId;
    const family = new Set([chatId, ...(accountId === undefined ? [] : await deps.chats.accountChats(accountId))]);
    const busyBefore = await inFlight(family);
    const before = await entriesOf(chatId);
    let availableSun: number;
    try {
      availableSun = (await deps.service.getBalance(apiKey, { signal })).availableSun;
    } catch (error) {
      if (ServiceError.isInstance(error) && error.isKeyRejected) return { result: "rejected", error };
      logger.debug({ err: error, chatId }, "balance unreadable; will read again");
      return { result: "failed", error };
    }
    const entries = await entriesOf(chatId);
    if (busyBefore || (await inFlight(family)) || idsOf(before) !== idsOf(entries)) return { result: "unsettled", availableSun };
    const balanceSun = BigInt(availableSun);
    const settings = await deps.settings.get(chatId);
    const thresholdSun = lowBalanceThresholdSun(settings, await deps.nextRenewalCostSun?.(chatId));
    const low = balanceSun < thresholdSun;
    const stored = await states.get(String(chatId));
    const state = stored === undefined ? undefined : adoptAccountHistory(stored, entries);

    if (!state || state.linkTag !== linkTag) {
      // The first read of a link is the baseline: nothing to compare it with, so nothing is told.
      const refunded = entries.filter((e) => e.kind === "broadcast" && REFUNDED_STATUSES.has(e.status)).map((e) => e.id);
      await states.set(String(chatId), {
        linkTag,
        lastSun: balanceSun.toString(),
        readAtMs: now(),
        seq: state?.seq ?? 0,
        seen: entries.map(entryKey),
        refunded,
        low,
        scope: "account",
      });
      logger.info({ chatId }, "balance watch baseline read");
      return { result: "judged", availableSun };
    }

    const ledger = await countOwnEffect({
      state,
      balanceSun,
      entries,
      broadcast: async (id) => {
        try {
          const b = await deps.service.getBroadcast(apiKey, id, { signal });
          return { feeSun: BigInt(b.totalCostSun), status: b.status };
        } catch (error) {
          logger.debug({ err: error, chatId, broadcastId: id }, "broadcast unreadable; judging later");
          return undefined;
        }
      },
    });
    if (!ledger) return { result: "unsettled", availableSun };
    const seq = state.seq + 1;
    const id = (what: string) => `watch-${chatId}-${linkTag}-${seq}-${what}`;

    if (ledger.unexplainedSun > 0n) {
      const depositSun = ledger.unexplainedSun;
      // From a top-up check only its own watch is offered: that check holds the watch's lock, which offer would wait for.
      const told = given ? await given.claim(depositSun, availableSun) : (await deps.topUps?.offer(chatId, availableSun, depositSun)) === true;
      logger.info({ chatId, depositSun: depositSun.toString(), toldAsTopUp: told }, "deposit seen");
      if (!told && settings.deposits) await deps.announce({ kind: "deposit", chatId, id: id("deposit"), depositSun, balanceSun });
    } else if (ledger.unexplainedSun < 0n) {
      const droppedSun = -ledger.unexplainedSun;
      logger.warn({ chatId, droppedSun: droppedSun.toString() }, "the balance fell by more than the bot spent");
      if (settings.foreignCharges) await deps.announce({ kind: "foreign", chatId, id: id("foreign"), droppedSun, balanceSun });
    }
    if (ledger.refundSun > 0n) logger.info({ chatId, refundSun: ledger.refundSun.toString() }, "refund of the bot's own broadcast seen; not a deposit");
    // Once per crossing: told when the balance goes below, re-armed when it is back at or above the threshold.
    if (low && !state.low && settings.lowBalance) await deps.announce({ kind: "low", chatId, id: id("low"), balanceSun, thresholdSun });
    const next: AccountWatchState = {
      linkTag,
      lastSun: balanceSun.toString(),
      readAtMs: now(),
      seq,
      seen: ledger.seen,
      refunded: ledger.refunded,
      low,
      scope: "account",
    };
    await states.set(String(chatId), next);
    return { result: "judged", availableSun };
  }

  /**
   * Queues linked chats not queued yet (only the chat id and a due time are kept), page by page. The chats
   * queued already are listed by id alone: a sweep of a store whose chats are all watched reads no record.
   */
  async function sweep(signal: AbortSignal): Promise<void> {
    let found = 0;
    let read = 0;
    // The real clock, not `now`: this paces work, it judges nothing.
    const startedAtMs = Date.now();
    for await (const page of deps.chats.linkedChatIds((chatId) => schedule.has(chatId))) {
      if (signal.aborted) return;
      for (const chatId of page.linked) {
        if (schedule.has(chatId)) continue;
        schedule.at(chatId, Math.floor(Math.random() * intervalMs));
        found += 1;
      }
      read += page.read;
      await paceSweep(startedAtMs + (read / sweepRecordsPerSecond) * 1_000 - Date.now(), signal);
      if (signal.aborted) return;
    }
    if (found > 0) logger.info({ found, queued: schedule.size() }, "balance watch sweep queued linked chats");
  }

  return {
    linked(chatId) {
      schedule.at(chatId, 0);
    },
    async unlinked(chatId) {
      schedule.cancel(chatId);
      await locks.run(String(chatId), () => states.delete(String(chatId)));
    },
    exclusive: (chatId, fn) => locks.run(String(chatId), fn),
    async observe(chatId, apiKey, depositClaim, signal) {
      if (!(await claim(`balance-watch:${chatId}`, intervalMs * 3))) {
        // Another process judges this chat: a plain read, never a second deposit notice.
        return (await deps.service.getBalance(apiKey, { signal })).availableSun;
      }
      const outcome = await judge(chatId, { apiKey, claim: depositClaim }, signal);
      if (outcome.error !== undefined) throw outcome.error instanceof Error ? outcome.error : new Error("balance unreadable", { cause: outcome.error });
      // Unlinked meanwhile: the top-up watcher ends the watch on its next look at the key.
      return outcome.availableSun ?? 0;
    },
    start() {
      reads = new AbortController();
      schedule.start(intervalMs, sweep);
      return Promise.resolve();
    },
    async stop() {
      reads.abort();
      await schedule.stop();
    },
  };
}
