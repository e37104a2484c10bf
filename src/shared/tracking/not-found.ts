import { ServiceError } from "../../platform/service/errors.js";
import type { TrackedItem } from "./tracked-item.js";
import type { TrackerGiveUp } from "./tracker-types.js";

/**
 * How long a record the bot tracks may keep answering 404 before the tracker stops and says so.
 * A 404 for an order or broadcast the bot itself placed (or already saw) is not an answer the
 * service stands by: a read can reach a replica behind the write, a deploy, a proxy without the
 * route. So it is read again with the usual backoff, and only a 404 that lasts `graceMs` from the
 * first one, over at least `reads` reads in a row, ends tracking (with a message that says what to
 * do). Any successful read in between starts the count again.
 */
export interface NotFoundBound {
  graceMs: number;
  reads: number;
}

export const DEFAULT_NOT_FOUND: NotFoundBound = { graceMs: 10 * 60_000, reads: 5 };

export type NotFoundOutcome = { stop: true } | { stop: false; item: TrackedItem };

/** The item after one more 404 at `nowMs`: kept (its 404 streak recorded) or stopped past the bound. */
export function afterNotFound(item: TrackedItem, nowMs: number, bound: NotFoundBound): NotFoundOutcome {
  const sinceMs = item.notFound?.sinceMs ?? nowMs;
  const reads = (item.notFound?.reads ?? 0) + 1;
  if (reads >= bound.reads && nowMs - sinceMs >= bound.graceMs) return { stop: true };
  return { stop: false, item: { ...item, attempt: item.attempt + 1, notFound: { sinceMs, reads } } };
}

/** The item after a read that answered: a 404 streak is over. */
export function withoutNotFound(item: TrackedItem): TrackedItem {
  if (item.notFound === undefined) return item;
  const { notFound: _over, ...rest } = item;
  return rest;
}

/** What a failed read of a tracked item leads to. */
export type ReadFailure =
  { action: "forget" } | { action: "give-up"; reason: TrackerGiveUp["reason"] } | { action: "retry"; item: TrackedItem; notFound: boolean };

/**
 * A read the service did not answer with the record. Only a rejected key is final at once; a 404
 * is final at once only for an id first named by a webhook and never read (someone else's record,
 * dropped without a word); every other failure is read again with the backoff.
 */
export function readFailure(item: TrackedItem, error: unknown, nowMs: number, bound: NotFoundBound): ReadFailure {
  const unseenHint = item.status === undefined && item.origin === "hint";
  if (ServiceError.isInstance(error) && error.isKeyRejected) return unseenHint ? { action: "forget" } : { action: "give-up", reason: "unreadable" };
  if (ServiceError.isInstance(error) && error.isNotFound) {
    if (unseenHint) return { action: "forget" };
    const next = afterNotFound(item, nowMs, bound);
    return next.stop ? { action: "give-up", reason: "not_found" } : { action: "retry", item: next.item, notFound: true };
  }
  return { action: "retry", item: { ...item, attempt: item.attempt + 1 }, notFound: false };
}
