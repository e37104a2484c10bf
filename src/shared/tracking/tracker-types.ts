import type { TrackerReadLimits } from "./tracker-reads.js";
import type { Logger } from "pino";
import type { ServiceClient } from "../../platform/service/client.js";
import type { HistoryEntry, OrderHistory } from "../orders/order-history.js";
import type { Leases } from "../../platform/store/lease.js";
import type { StoreBackend } from "../../platform/store/types.js";
import type { NotFoundBound } from "./not-found.js";
import type { PollScheduleOptions } from "./poll-schedule.js";
import type { TrackedItem, TrackedRecord, TrackKind } from "./tracked-item.js";

/** The tracker's contract: what it reports, what it needs, what it offers. */

export type { TrackedRecord } from "./tracked-item.js";

export type TrackerChange = TrackedRecord & {
  chatId: number;
  previousStatus: string | undefined;
  /** The record reached a finished status; tracking ends. */
  final: boolean;
  cardMessageId?: number;
  /** The status the card shows already: an edit to it would change nothing. */
  cardStatus?: string;
  origin: TrackedItem["origin"];
  locale?: string;
  /**
   * order, once `fulfilled`: when the bot first saw it so (the history's `fulfilledAtMs`, or this
   * sighting's time, which the history then records): the delegation's start.
   */
  fulfilledAtMs?: number;
  /** order: a keep plan's renewal (the plan's id): shown on the plan's card, not as an order card or notice. */
  renewalOf?: string;
  /** broadcast: what the bot read itself from the signed transaction (the chat's history entry), when known. */
  local?: Pick<HistoryEntry, "txKind" | "amountAtomic" | "amountSun" | "contractType" | "contractAddress" | "details">;
};

export interface TrackerGiveUp {
  chatId: number;
  kind: TrackKind;
  id: string;
  lastStatus: string | undefined;
  /**
   * Why tracking ended: "not_found" when the service kept answering 404 past the bound (not-found.ts),
   * "unreadable" when it rejected the chat's key, "horizon" when the record did not finish in time.
   */
  reason: "not_found" | "unreadable" | "horizon";
  /** "not_found": when the first of the 404s in a row came. */
  notFoundSinceMs?: number;
  cardMessageId?: number;
  locale?: string;
}

export interface TrackerDeps {
  store: StoreBackend;
  service: Pick<ServiceClient, "getOrder" | "getBroadcast">;
  getApiKey: (chatId: number) => Promise<string | undefined>;
  /** Renders a change (card edit, final notification). Throwing means "not announced": it is offered again. */
  onChange: (change: TrackerChange) => Promise<void>;
  onGiveUp?: (event: TrackerGiveUp) => Promise<void>;
  /** Kept current with every status seen. */
  history?: OrderHistory;
  /** Runs each poll as one unit of work (`read-memo.ts`): its chat, history and notice read their records once. */
  unit?: <T>(work: () => Promise<T>) => Promise<T>;
  logger: Logger;
  now?: () => number;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** How long, and over how many reads, a record the bot tracks may answer 404 before tracking stops. */
  notFound?: Partial<NotFoundBound>;
  /** Orders are given up this long after tracking starts. Default 1 h. */
  orderHorizonMs?: number;
  /** Broadcasts are given up this long after `txExpirationMs`. Default 5 min. */
  broadcastMarginMs?: number;
  /**
   * How long the first read waits for a card the bot is drawing (`pendingCard`)
   * before the tracker announces the status itself. A safety net only: the bot
   * always reports, and gives its own edit less time than this
   * (`FIRST_CARD_BUDGET_MS`), so a late edit never draws an older status over
   * the tracker's. Default 60 s.
   */
  cardGraceMs?: number;
  /**
   * Whether a confirmation of the chat's account is in flight (the confirmation journal holds one): a record its
   * history does not hold may then be the one being placed, whose webhook overtook the answer to the POST.
   */
  confirmationInFlight?: (chatId: number) => Promise<boolean>;
  /**
   * How long a webhook's first sight of a record the chat's history does not hold waits before its first read
   * while `confirmationInFlight` says a confirmation of the account is in flight. The placer records and tracks
   * an order only after the POST's answer, which the service's webhook can overtake: read at once, the order
   * would be announced as made elsewhere; read after the grace, the placer's `track` has made it the bot's own
   * (its card, a renewal's plan). A record made elsewhere (the dashboard, the API) is read at once otherwise.
   * Default 5 s.
   */
  firstSightGraceMs?: number;
  /**
   * Shared with every process on the store: each item is polled by the one
   * holding its lease. Without it this process holds every item.
   */
  leases?: Leases;
  /** An item's lease; a dead process's items are free again after it. Default 15 s. */
  leaseTtlMs?: number;
  /** How often the tracked items are listed to renew this process's leases and adopt free ones. Default 5 s. */
  scanIntervalMs?: number;
  /** Overdue items picked up at once (a start, a takeover) are read this far apart, over at most `maxMs`. */
  firstReadSpread?: { perItemMs: number; maxMs: number };
  /** Reads of the service sent at once and per second; the others wait their turn (tracker-reads.ts). */
  readLimits?: Partial<TrackerReadLimits>;
  /** Gauge of tracked items by kind. */
  metrics?: { set(name: string, value: number, labels?: Record<string, string>): void };
  /** The polling pace beyond `minDelayMs`/`maxDelayMs` (poll-schedule.ts); its defaults scale with `minDelayMs`. */
  schedule?: Omit<PollScheduleOptions, "minDelayMs" | "maxDelayMs">;
}

export interface TrackInput {
  chatId: number;
  kind: TrackKind;
  id: string;
  /** Status already shown on the card (not announced again). */
  status?: string;
  cardMessageId?: number;
  /** broadcast: the transaction's expiration, known locally before the first read. */
  txExpirationMs?: number;
  /** The language the chat was talking in; renders later notifications. */
  locale?: string;
  /**
   * The caller is drawing the first card (or list) now and will report with
   * `cardShown` or `cardNotShown`; until then (at most `cardGraceMs`) the
   * record is not read. Without a report the tracker announces the status itself.
   */
  pendingCard?: boolean;
  /** order: a keep plan's renewal (the plan's id), carried into every change of it. */
  renewalOf?: string;
}

export interface Tracker {
  /**
   * Picks up every unfinished item persisted by an earlier run whose lease is
   * free, then keeps adopting free ones (a dead process's) every scan.
   * `inBackground`: resolves at once and picks them up meanwhile (a start
   * need not wait for thousands of items); a failure is logged and retried.
   */
  start(options?: { inBackground?: boolean }): Promise<void>;
  /** Stops timers, waits for reads in flight and gives its leases up; items stay persisted. */
  stop(): Promise<void>;
  track(input: TrackInput): Promise<void>;
  /**
   * A card of a tracked item was just drawn showing `status` (a Refresh, or the
   * first card after a confirm); the tracker will not redraw it with that
   * status, and a status first shown this way counts as announced. Without
   * `cardMessageId` (a batch's list) only the status counts. No effect on
   * untracked items.
   */
  cardShown(input: { chatId: number; kind: TrackKind; id: string; cardMessageId?: number; status: string }): Promise<void>;
  /** Drawing the first card failed (Telegram refused, timed out): the tracker announces the status itself, now. */
  cardNotShown(input: { chatId: number; kind: TrackKind; id: string }): Promise<void>;
  /**
   * A webhook said something happened: re-read now, tracking the id if it is
   * new. `verified` (a signed delivery) tells that the chat's webhooks arrive:
   * its items are then polled only as a safety net for a while.
   */
  hint(input: { chatId: number; kind: TrackKind; id: string; verified?: boolean }): Promise<void>;
  /** Forgets every item of the chat (blocked bot, unlinked key). Returns how many. */
  stopChat(chatId: number): Promise<number>;
  readonly size: number;
}

export const DEFAULT_TRACKING = {
  minDelayMs: 1_000,
  maxDelayMs: 30_000,
  orderHorizonMs: 60 * 60_000,
  broadcastMarginMs: 5 * 60_000,
  cardGraceMs: 60_000,
  firstSightGraceMs: 5_000,
  leaseTtlMs: 15_000,
  scanIntervalMs: 5_000,
} as const;
