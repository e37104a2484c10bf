import type { Logger } from "pino";
import type { Metrics } from "../../platform/metrics.js";
import type { StoreBackend } from "../../platform/store/types.js";
import type { EventKind } from "./extract-event-ids.js";

/** One accepted webhook delivery, as persisted before the 2xx. */
export interface InboxItem {
  chatId: number;
  deliveryId: string;
  /** From the event header, else from the payload. */
  event: string | undefined;
  /**
   * The body as received, as UTF-8 text; parsed only when processed. Text
   * because a stranger's parsed JSON (`{"toJSON":1}`, deep nesting) is not
   * something every store and queue can serialize and read back.
   */
  body: string;
  /** True when the signature was checked against the chat's secret; false: a hint only. */
  verified: boolean;
  receivedAt: number;
  /**
   * Verified deliveries only: the signature over what it covers (timestamp and
   * body), and when it stops being accepted (ms). A capture replayed under
   * fresh delivery ids carries the same one: it is processed once.
   */
  signed?: SignedContent;
}

export interface SignedContent {
  /** The matched signature (hex): a hash of "<t>.<raw body>" under the chat's secret. */
  hash: string;
  /** Past this the signature is stale and refused anyway: the mark need not outlive it. */
  untilMs: number;
}

/** What the rest of the bot hears: "re-read this record for this chat". Never the payload's claims. */
export interface WebhookNotice {
  chatId: number;
  kind: EventKind;
  id: string;
  /** Present when the payload carried the broadcast's txId. */
  txId?: string;
  event: string | undefined;
  deliveryId: string;
  verified: boolean;
}

/** "full": too many deliveries wait for processing; nothing was stored, the sender should retry later. */
export type AcceptResult = "accepted" | "duplicate" | "full";

export interface WebhookInbox {
  /**
   * Persists a delivery (resolves once stored); a delivery id seen in the last
   * 24 h is a duplicate, and so is signed content (`item.signed`) seen while
   * its signature is still accepted, whatever its delivery id.
   */
  accept(item: InboxItem): Promise<AcceptResult>;
  /** Processes persisted deliveries, those left by a crash included. */
  start(): Promise<void>;
  /** Waits for processing in flight. Idempotent. */
  stop(): Promise<void>;
  size(): Promise<number>;
}

export interface WebhookInboxDeps {
  store: StoreBackend;
  logger: Logger;
  metrics?: Metrics;
  /** Wired to the tracker's hint: re-read with the chat's key, announce each status once. */
  onEvent: (notice: WebhookNotice) => Promise<unknown>;
  /** Maps a txId to the chat's broadcastId when a payload names only the transaction. */
  resolveTxId?: (chatId: number, txId: string) => Promise<string | undefined>;
  /** Delivery ids are remembered this long (service retries span far less). Default 24 h. */
  dedupTtlMs?: number;
  /** Failed processing (service down) is retried with backoff this many times. */
  maxAttempts?: number;
  baseDelayMs?: number;
  /** Deliveries processed at once (local queue). Default 4. */
  concurrency?: number;
  /** Local queue: how long a processed delivery's removal waits to share its commit with others'. Default 25 ms. */
  removalLingerMs?: number;
  /**
   * Local queue: deliveries stored and not yet done (processed ones whose removal waits included) before `accept`
   * answers "full". A bound on the store's growth, not on memory. Default 1,000,000.
   */
  maxPending?: number;
  /** Local queue: deliveries held in memory; past it they are stored, acknowledged and wait in the store. Default 10,000. */
  maxInMemory?: number;
  /** BullMQ: jobs (up to 16 deliveries each) waiting, retrying or running, over every process, before `accept` answers "full". Default 2,000. */
  maxPendingJobs?: number;
  /** An unverified hint for the same record is passed on at most once per this window. */
  hintCooldownMs?: number;
  /**
   * Unverified hints passed on per chat per minute, whatever the ids: a stranger
   * who knows the URL cannot spend the chat's service rate limit on made-up ids. Default 30.
   */
  hintsPerChatPerMinute?: number;
  /** "local" (the default) or "bullmq" with `redisUrl`. See `QueueMode`. */
  queue?: "local" | "bullmq";
  redisUrl?: string;
  /** Name prefix for store namespaces and BullMQ queues. */
  name?: string;
  /** BullMQ's key prefix (its own default `bull`); our keys beside the queue's use it too. */
  bullPrefix?: string;
}
