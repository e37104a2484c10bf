import type { PushLimits } from "./types.js";

/**
 * Sliding windows mirroring Telegram's limits: at most N sends in any window,
 * globally, per private chat (1 s) and per group (60 s, negative chat ids),
 * plus pauses asked for by a 429's retry_after.
 */
export interface RateLimiter {
  /** Earliest time (ms) a send to this chat is allowed; <= now means now. */
  readyAt(chatId: number, now: number): number;
  /** Earliest time the global window lets any send through. */
  globalReadyAt(now: number): number;
  /** Counts a send that is leaving now (no chat: an inline message, counted by the global window alone). */
  record(chatId: number | undefined, now: number): void;
  /**
   * Telegram answered the send counted at `sentAt`: it is counted from `now` instead. Telegram counts a
   * message when it arrives, at some moment between the two, and a loaded machine or network can hold a
   * request long enough that counting it from its departure lets the next window's sends crowd it.
   */
  answered(chatId: number | undefined, sentAt: number, now: number): void;
  pauseChat(chatId: number, untilMs: number): void;
  pauseGlobal(untilMs: number): void;
  /** Drops per-chat state no longer needed (bounded memory with many chats). */
  prune(now: number): void;
  /** Recent sends and pauses, so a restarted queue keeps counting where this one stopped. */
  snapshot(now: number): LimiterSnapshot;
  restore(snapshot: LimiterSnapshot): void;
}

export interface LimiterSnapshot {
  global: number[];
  chats: [chatId: number, sends: number[]][];
  chatPauses: [chatId: number, until: number][];
  globalPause: number;
}

export function isLimiterSnapshot(value: unknown): value is LimiterSnapshot {
  const v = value as Partial<LimiterSnapshot> | undefined;
  return (
    typeof v === "object" && v !== null && Array.isArray(v.global) && Array.isArray(v.chats) && Array.isArray(v.chatPauses) && typeof v.globalPause === "number"
  );
}

export function isGroupChat(chatId: number): boolean {
  return chatId < 0;
}

function firstInWindow(list: number[], now: number, windowMs: number): void {
  while (list.length > 0 && list[0]! <= now - windowMs) list.shift();
}

/** Moves one `from` of the sorted `list` to `to`, keeping it sorted; a `from` already pruned is counted at `to` anew. */
function moveSend(list: number[], from: number, to: number): void {
  const at = list.indexOf(from);
  if (at >= 0) list.splice(at, 1);
  let i = list.length;
  while (i > 0 && list[i - 1]! > to) i -= 1;
  list.splice(i, 0, to);
}

export function createRateLimiter(limits: PushLimits): RateLimiter {
  const globalWindow = 1_000 + limits.marginMs;
  // Sends are also spaced evenly: a burst of a whole second's allowance arrives
  // at Telegram smeared by queueing, and the next second's burst would then overlap it.
  const spacingMs = globalWindow / limits.globalPerSecond;
  let nextSpaced = 0;
  const global: number[] = [];
  const perChat = new Map<number, number[]>();
  const chatPause = new Map<number, number>();
  let globalPause = 0;

  const chatLimit = (chatId: number) =>
    isGroupChat(chatId)
      ? { max: limits.perGroupPerMinute, windowMs: 60_000 + limits.marginMs }
      : { max: limits.perChatPerSecond, windowMs: 1_000 + limits.marginMs };

  return {
    readyAt(chatId, now) {
      let at = Math.max(now, chatPause.get(chatId) ?? 0);
      const list = perChat.get(chatId);
      if (list) {
        const { max, windowMs } = chatLimit(chatId);
        firstInWindow(list, now, windowMs);
        if (list.length >= max) at = Math.max(at, list[list.length - max]! + windowMs + 1);
      }
      return at;
    },
    globalReadyAt(now) {
      firstInWindow(global, now, globalWindow);
      let at = Math.max(now, globalPause, nextSpaced);
      if (global.length >= limits.globalPerSecond) {
        // A send leaves the window when the window has passed since it (`firstInWindow`), not a millisecond later.
        at = Math.max(at, global[global.length - limits.globalPerSecond]! + globalWindow);
      }
      return at;
    },
    record(chatId, now) {
      global.push(now);
      // The next slot follows this one's slot, not the moment it was used: a timer fires late (a millisecond, or tens
      // of them while the process is busy), and counting each gap from the send would stretch it by that (27.8/s
      // instead of 28.6/s at 30/s). A send more than a slot behind its own (the queue was idle) starts the cadence over
      // from itself instead of bursting to catch up.
      nextSpaced = (now - nextSpaced > spacingMs ? now : nextSpaced) + spacingMs;
      if (chatId === undefined) return;
      const list = perChat.get(chatId) ?? [];
      list.push(now);
      perChat.set(chatId, list);
    },
    answered(chatId, sentAt, now) {
      if (now <= sentAt) return;
      moveSend(global, sentAt, now);
      if (chatId === undefined) return;
      const list = perChat.get(chatId) ?? [];
      moveSend(list, sentAt, now);
      perChat.set(chatId, list);
    },
    pauseChat(chatId, untilMs) {
      chatPause.set(chatId, Math.max(untilMs, chatPause.get(chatId) ?? 0));
    },
    pauseGlobal(untilMs) {
      globalPause = Math.max(globalPause, untilMs);
    },
    prune(now) {
      for (const [chatId, list] of perChat) {
        firstInWindow(list, now, chatLimit(chatId).windowMs);
        if (list.length === 0) perChat.delete(chatId);
      }
      for (const [chatId, until] of chatPause) if (until <= now) chatPause.delete(chatId);
    },
    snapshot(now) {
      this.prune(now);
      firstInWindow(global, now, globalWindow);
      return {
        global: [...global],
        chats: [...perChat].map(([id, list]) => [id, [...list]]),
        chatPauses: [...chatPause],
        globalPause,
      };
    },
    restore(snapshot) {
      global.push(...snapshot.global);
      global.sort((a, b) => a - b);
      for (const [id, list] of snapshot.chats)
        perChat.set(
          id,
          [...(perChat.get(id) ?? []), ...list].sort((a, b) => a - b),
        );
      for (const [id, until] of snapshot.chatPauses) this.pauseChat(id, until);
      this.pauseGlobal(snapshot.globalPause);
    },
  };
}
