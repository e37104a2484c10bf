import { backoffDelay, type TrackedItem } from "./tracked-item.js";

/**
 * When the tracker reads an item next. Polling alone, an item is read 1 s
 * after it is tracked, 2 s later, then every `steadyMs` (6 s) while it is
 * younger than `activeMs` (3 min); after that the pace eases linearly (a
 * quarter of the time past the window) up to `maxDelayMs` (30 s). A status
 * change resets nothing: the pace is already one that sees a change within
 * `steadyMs`, and an order fulfilled in 60 s costs 12 reads.
 *
 * When the chat's signed webhooks are known to arrive (a verified delivery
 * for the chat within `webhookTrustMs`, 5 min), each webhook re-reads the
 * item at once and polling is only a safety net: one read every
 * `safetyNetMs` (2 min). If the webhooks stop, a change is still seen within
 * `safetyNetMs`, and the normal pace is back at most `webhookTrustMs +
 * safetyNetMs` after the last verified delivery.
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
    if (trusted(item.chatId, nowMs)) return safetyNetMs;
    const ageMs = Math.max(0, nowMs - item.startedAtMs);
    if (ageMs < activeMs) return Math.min(steadyMs, Math.max(minDelayMs, 2 * ageMs));
    return Math.min(maxDelayMs, steadyMs + (ageMs - activeMs) / 4);
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
