import { backoffDelay, type TrackedItem } from "./tracked-item.js";

/**
 * When the tracker reads an item next. Polling alone, an item is read 1 s
 * after it is tracked, 2 s later, then every `steadyMs` (6 s, stretched by
 * up to a fifth per item so a batch's orders spread out) while it is
 * younger than `activeMs` (3 min); after that the pace eases linearly (a
 * quarter of the time past the window) up to `maxDelayMs` (30 s). A status
 * change resets nothing: the pace is already one that sees a change within
 * 1.2 × `steadyMs`, and an order fulfilled in 60 s costs at most 12 reads.
 *
 * When the chat's signed webhooks are known to arrive (a verified delivery
 * for the chat within `webhookTrustMs`, 5 min), each webhook re-reads the
 * item at once and polling is only a safety net: one read every
 * `safetyNetMs` (2 min, stretched like the steady pace). If the webhooks
 * stop, a change is still seen within 1.2 × `safetyNetMs` (2.4 min), and the
 * normal pace is back at most `webhookTrustMs` + 1.2 × `safetyNetMs` (7.4 min)
 * after the last verified delivery.
 *
 * Every default is a multiple of `minDelayMs`, so a faster clock (tests,
 * benches) keeps the same shape.
 */
export interface PollScheduleOptions {
  minDelayMs: number;
  maxDelayMs: number;
  steadyMs?: number;
  activeMs?: number;
  safetyNetMs?: number;
  webhookTrustMs?: number;
  /**
   * "reset-backoff": the former schedule, kept for the benches' baseline: 1 s,
   * 2 s, 4 s … `maxDelayMs`, back to 1 s at every change, webhooks or not.
   */
  kind?: "paced" | "reset-backoff";
}

export interface PollSchedule {
  /** Delay of the item's next read; `failed` when the last read or announcement failed (backs off too). */
  nextDelay(item: TrackedItem, nowMs: number, failed: boolean): number;
  /** A verified webhook for the chat was just processed. */
  webhookVerified(chatId: number, nowMs: number): void;
  /** Whether the chat's webhooks count as arriving (polling is a safety net). */
  webhooksTrusted(chatId: number, nowMs: number): boolean;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * The steady and safety-net delays of each item are stretched by up to this
 * much (a fixed share per id, never shortened): the orders of one /batch,
 * tracked at the same instant, do not all hit the service in the same
 * millisecond every 6 s.
 */
const SPREAD = 0.2;

/** A fixed number in [0, 1) per id (FNV-1a). */
function unitOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

/** Chats remembered at most; the oldest are dropped (they fall back to the normal pace). */
const MAX_TRUSTED_CHATS = 100_000;

export function createPollSchedule(options: PollScheduleOptions): PollSchedule {
  const { minDelayMs, maxDelayMs } = options;
  const steadyMs = Math.min(maxDelayMs, options.steadyMs ?? 6 * minDelayMs);
  const activeMs = options.activeMs ?? 180 * minDelayMs;
  const safetyNetMs = Math.max(steadyMs, options.safetyNetMs ?? 120 * minDelayMs);
  const trustMs = options.webhookTrustMs ?? 300 * minDelayMs;
  const legacy = options.kind === "reset-backoff";
  /** chatId → time of its last verified delivery, oldest first. */
  const verifiedAt = new Map<number, number>();

  const trusted = (chatId: number, nowMs: number): boolean => {
    const at = verifiedAt.get(chatId);
    return at !== undefined && nowMs - at < trustMs;
  };

  function paced(item: TrackedItem, nowMs: number): number {
    const stretch = 1 + SPREAD * unitOf(item.id);
    if (trusted(item.chatId, nowMs)) return safetyNetMs * stretch;
    const ageMs = Math.max(0, nowMs - item.startedAtMs);
    if (ageMs < activeMs) return Math.min(maxDelayMs, steadyMs * stretch, Math.max(minDelayMs, 2 * ageMs));
    return Math.min(maxDelayMs, steadyMs * stretch + (ageMs - activeMs) / 4);
  }

  return {
    minDelayMs,
    maxDelayMs,
    nextDelay(item, nowMs, failed) {
      const backoff = backoffDelay(item.attempt, { minDelayMs, maxDelayMs });
      if (legacy) return backoff;
      const delay = paced(item, nowMs);
      return Math.round(failed ? Math.max(delay, backoff) : delay);
    },
    webhookVerified(chatId, nowMs) {
      if (legacy) return;
      verifiedAt.delete(chatId);
      verifiedAt.set(chatId, nowMs);
      if (verifiedAt.size > MAX_TRUSTED_CHATS) {
        const oldest = verifiedAt.keys().next();
        if (!oldest.done) verifiedAt.delete(oldest.value);
      }
    },
    webhooksTrusted: (chatId, nowMs) => !legacy && trusted(chatId, nowMs),
  };
}
