import type { Job } from "bullmq";
import { groupCalls } from "../../platform/group-calls.js";
import { createBullmqConnection } from "../../platform/queue/bullmq-connection.js";
import { inboxKey } from "./create-local-inbox.js";
import { createWebhookProcessor } from "./process-webhook.js";
import { readInboxItem, signedKey, signedTtlMs } from "./inbox-item.js";
import type { AcceptResult, InboxItem, WebhookInbox, WebhookInboxDeps } from "./types.js";

const DAY_MS = 24 * 3600_000;
/**
 * Deliveries per job at most. A job's deliveries are processed one after the
 * other, so the 8 jobs running at once keep 8 re-reads in flight, as one job
 * per delivery did; the cap bounds how long the last of a job waits.
 */
const MAX_JOB_DELIVERIES = 16;
const WORKER_CONCURRENCY = 8;
/**
 * Jobs waiting, retrying or running, over every process, past which accepts
 * are refused ("full": 503 with Retry-After) and nothing is added: up to
 * 32,000 deliveries of a flood (about 10 s of one at 3,000/s), a few MB of
 * Redis's memory, where an unbounded queue would take all of it.
 */
export const DEFAULT_MAX_PENDING_JOBS = 2_000;
/** How stale the count of pending jobs may get while below the bound (reading it is one more script call). */
const RECOUNT_EVERY_MS = 100;

/**
 * Claims each key (KEYS: delivery ids and signed contents) for the job
 * (ARGV[1]) for ARGV[i + 1] ms unless another job holds it: 1 held by this
 * job (now or already), 0 by another.
 */
const CLAIM = `local out = {}
for i = 1, #KEYS do
  local holder = redis.call("GET", KEYS[i])
  if holder == ARGV[1] then out[i] = 1
  elseif holder then out[i] = 0
  else
    redis.call("SET", KEYS[i], ARGV[1], "PX", ARGV[i + 1])
    out[i] = 1
  end
end
return out`;

/** A job: the deliveries accepted together. A job of an earlier version carries one delivery, the item itself. */
interface DeliveriesJob {
  items: InboxItem[];
}

function readJob(data: unknown): { items: InboxItem[]; unreadable: number; claimed: boolean } {
  const list =
    typeof data === "object" && data !== null && Array.isArray((data as Partial<DeliveriesJob>).items) ? (data as { items: unknown[] }).items : undefined;
  if (list === undefined) {
    // The earlier layout claimed its delivery id before the job was added: nothing to check.
    const item = readInboxItem(data);
    return { items: item ? [item] : [], unreadable: item ? 0 : 1, claimed: true };
  }
  const items = list.flatMap((value) => readInboxItem(value) ?? []);
  return { items, unreadable: list.length - items.length, claimed: false };
}

/**
 * Scale-out inbox: any process may answer the webhook, any process may do
 * the work. Accepts arriving together become one BullMQ job (BullMQ's add and
 * its completion are Lua scripts of a dozen Redis commands each: per job, not
 * per delivery); the add is the only write before the answer. A job, when it
 * runs, claims its deliveries' ids for 24 h, atomically across processes
 * (CLAIM), and processes only those it holds: each delivery once, however many
 * jobs carry it. A delivery whose id is held already is answered as a
 * duplicate. Failed deliveries are retried with backoff, only they: the job
 * keeps the failed ones and throws. Past `maxPendingJobs` unfinished jobs
 * over every process, accepts are refused as "full" and nothing is added.
 */
export function createBullmqInbox(deps: WebhookInboxDeps & { redisUrl: string }): WebhookInbox {
  const name = deps.name ?? "webhook";
  const dedupTtl = deps.dedupTtlMs ?? DAY_MS;
  const maxAttempts = deps.maxAttempts ?? 8;
  const log = deps.logger.child({ module: "webhook-inbox", queue: "bullmq" });
  const processWebhook = createWebhookProcessor(deps);
  const prefix = deps.bullPrefix ?? "bull";
  const bull = createBullmqConnection({ name, redisUrl: deps.redisUrl, logger: log, prefix });
  const seenKey = (item: InboxItem) => `${prefix}:${name}:seen:${inboxKey(item.chatId, item.deliveryId)}`;
  /** The claim on a verified delivery's signed content: a replay under a fresh delivery id finds it held. */
  const signedSeenKey = (item: InboxItem) => (item.signed ? `${prefix}:${name}:seen:${signedKey(item.chatId, item.signed)}` : undefined);
  const maxPendingJobs = deps.maxPendingJobs ?? DEFAULT_MAX_PENDING_JOBS;
  /** The jobs waiting, retrying or running as last read, and when. */
  let pendingJobs = 0;
  let countedAt = Number.NEGATIVE_INFINITY;

  const jobOptions = {
    attempts: maxAttempts,
    backoff: { type: "exponential", delay: deps.baseDelayMs ?? 1_000, jitter: 0.2 },
    // The claims deduplicate; a finished job is not needed for that. A failed one stays a day, to be looked at.
    removeOnComplete: true,
    removeOnFail: { age: Math.ceil(dedupTtl / 1000) },
  };

  /** Per claim key, whether it is the first of its id in `keys`. */
  function firstCopies(keys: string[]): boolean[] {
    const ids = new Set<string>();
    return keys.map((key) => {
      const first = !ids.has(key);
      ids.add(key);
      return first;
    });
  }

  /** One script, so atomic across processes: see CLAIM. */
  async function claimFor(jobId: string, claims: { key: string; ttlMs: number }[]): Promise<boolean[]> {
    const reply = await (
      await bull.redis()
    ).eval(CLAIM, { keys: claims.map((c) => c.key), arguments: [jobId, ...claims.map((c) => String(Math.ceil(c.ttlMs)))] });
    // Lua's integers come back as numbers.
    return (reply as number[]).map((held) => held === 1);
  }

  /**
   * One round trip for every accept of the group: the job's add, and beside it
   * a read of the ids' claims (and, now and then, of the number of pending
   * jobs: past `maxPendingJobs` the group is refused as "full" and not added,
   * and the count is read with every group until it is below again). Only a
   * job claims ids, when it runs (CLAIM), so the add is the one write: a
   * process dying at any point leaves either no job (the service, unanswered,
   * retries) or a whole one. An id some job already holds is answered as a
   * duplicate, and this job's copy of it is skipped when it runs; two copies
   * stored before either ran are two jobs, and only the first to run
   * processes the delivery.
   */
  const accepts = groupCalls(
    async (batch: InboxItem[]): Promise<AcceptResult[]> => {
      const [q, client] = await Promise.all([bull.queue(), bull.redis()]);
      // A key is a hash: made once per delivery and phase.
      const keys = batch.map(seenKey);
      const signedKeys = batch.map(signedSeenKey);
      const full = pendingJobs >= maxPendingJobs;
      const now = Date.now();
      const recount = full || now - countedAt >= RECOUNT_EVERY_MS;
      if (recount) countedAt = now;
      const [, holders, counted] = await Promise.all([
        full ? undefined : q.add("webhooks", { items: batch } satisfies DeliveriesJob, jobOptions),
        // The signed contents' claims are read in the same MGET.
        client.mGet([...keys, ...signedKeys.flatMap((k) => k ?? [])]),
        recount ? bull.size() : undefined,
      ]);
      if (counted !== undefined) pendingJobs = counted;
      const signedHeld = new Map(signedKeys.flatMap((k) => k ?? []).map((k, i) => [k, holders[keys.length + i] !== null]));
      // A delivery sent twice within the group is in the job twice: the first copy is accepted.
      const first = firstCopies(keys);
      const firstSigned = firstCopies(signedKeys.map((k, i) => k ?? keys[i]!));
      const results = batch.map((_, i): AcceptResult => {
        const signed = signedKeys[i];
        if (holders[i] !== null || (signed !== undefined && signedHeld.get(signed) === true)) return "duplicate";
        if (full) return "full";
        return first[i] && firstSigned[i] ? "accepted" : "duplicate";
      });
      const accepted = results.filter((r) => r === "accepted").length;
      if (accepted > 0) deps.metrics?.inc("webhooks_total", { outcome: "accepted" }, accepted);
      return results;
    },
    { maxBatch: MAX_JOB_DELIVERIES, maxInFlight: 4 },
  );

  /**
   * The deliveries of the job that are its own: their delivery id and, when
   * verified, their signed content claimed for it now, or already (a retry of
   * the job). A replay stored before the first copy ran finds the signed
   * content held by the first copy's job and is skipped.
   */
  async function ownDeliveries(job: Job, items: InboxItem[]): Promise<InboxItem[]> {
    const keys = items.map(seenKey);
    const signedKeys = items.map(signedSeenKey);
    const now = Date.now();
    const claims = keys.map((key) => ({ key, ttlMs: dedupTtl }));
    const signedAt: (number | undefined)[] = items.map((item, i) => {
      const key = signedKeys[i];
      if (key === undefined || !item.signed) return undefined;
      claims.push({ key, ttlMs: signedTtlMs(item.signed, now) });
      return claims.length - 1;
    });
    const held = await claimFor(job.id!, claims);
    // A delivery sent twice within one group is in the job twice, under one claim: it runs once.
    const first = firstCopies(keys);
    const firstSigned = firstCopies(signedKeys.map((k, i) => k ?? keys[i]!));
    return items.filter((_, i) => {
      const at = signedAt[i];
      return held[i] && first[i] && firstSigned[i] && (at === undefined || held[at]);
    });
  }

  async function processJob(job: Job): Promise<void> {
    const read = readJob(job.data);
    // Neither today's shape nor an earlier one: retrying cannot help.
    if (read.unreadable > 0) log.warn({ jobId: job.id, unreadable: read.unreadable }, "unreadable webhook deliveries discarded");
    const items = read.claimed ? read.items : await ownDeliveries(job, read.items);
    const failed: { item: InboxItem; error: unknown }[] = [];
    for (const item of items) {
      try {
        await processWebhook(item);
      } catch (error) {
        failed.push({ item, error });
      }
    }
    if (failed.length === 0) return;
    const attempt = job.attemptsMade + 1;
    for (const { item, error } of failed) {
      const where = { err: error, chatId: item.chatId, deliveryId: item.deliveryId, attempts: attempt };
      if (attempt >= maxAttempts) log.error(where, "webhook processing failed; giving up");
      else log.warn(where, "webhook processing failed; will retry");
    }
    if (attempt >= maxAttempts) deps.metrics?.inc("webhooks_total", { outcome: "failed" }, failed.length);
    // Only the failed deliveries are tried again; should this write fail, all of them are (a re-read twice is harmless).
    else if (failed.length < read.items.length) await job.updateData({ items: failed.map((f) => f.item) } satisfies DeliveriesJob);
    throw failed[0]!.error;
  }

  return {
    accept: (item) => accepts.call(item),
    async start() {
      await bull.startWorker(processJob, { concurrency: WORKER_CONCURRENCY });
    },
    async stop() {
      await accepts.idle();
      await bull.close();
    },
    size: () => bull.size(),
  };
}
