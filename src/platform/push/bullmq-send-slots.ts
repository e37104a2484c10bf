import type { RedisClient } from "../queue/bullmq-connection.js";

/**
 * Reserves, in one atomic step on Redis's clock, the chat's turn and the next
 * slot of the cadence every process shares. A busy chat takes no slot. The
 * next slot follows this slot, not the send, so a late timer or a slow round
 * trip does not stretch the cadence. The chat's turn is held until its slot
 * plus its interval, so a later job of the chat cannot slip in while this one
 * waits for its slot. A pause a 429 asked for moves the slot past the pause.
 * "again" takes a new slot for a chat whose turn the caller already holds.
 */
const RESERVE = `local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[3] ~= "again" then
  local chatBusy = redis.call("PTTL", KEYS[2])
  if chatBusy > 0 then return {0, chatBusy} end
end
local slot = math.max(now, tonumber(redis.call("GET", KEYS[1]) or "0"))
local paused = redis.call("PTTL", KEYS[3])
if paused > 0 then slot = math.max(slot, now + paused) end
local spacing = tonumber(ARGV[1])
local wait = math.ceil(slot - now)
redis.call("SET", KEYS[1], string.format("%.3f", slot + spacing), "PX", wait + math.ceil(spacing) + 1000)
redis.call("SET", KEYS[2], "1", "PX", wait + tonumber(ARGV[2]))
return {wait, 0}`;

/** Sets the pause unless a longer one is already running. */
const PAUSE = `if redis.call("PTTL", KEYS[1]) < tonumber(ARGV[1]) then redis.call("SET", KEYS[1], "1", "PX", ARGV[1]) end
return 0`;

export type SlotReservation = { waitMs: number } | { chatBusyMs: number };

export interface SendSlots {
  /** The chat's turn and the next shared slot, or how long the chat is still busy (then no slot is taken). */
  reserve(paceKey: string, chatIntervalMs: number): Promise<SlotReservation>;
  /** A later slot for a send that missed its own; the chat's turn, held already, is extended to it. */
  reserveAgain(paceKey: string, chatIntervalMs: number): Promise<number>;
  /** What is left (ms) of a pause a 429 asked for; 0 when there is none. */
  pausedFor(): Promise<number>;
  /** Pauses every process's sends for `ms`; slots reserved later begin after it. */
  pause(ms: number): Promise<void>;
}

/**
 * One cadence for the sends of every process on the queue: `spacingMs` apart,
 * so any window of Telegram's second plus margin holds at most its limit.
 */
export function createSendSlots(redis: () => Promise<RedisClient>, keyPrefix: string, spacingMs: number): SendSlots {
  const cadenceKey = `${keyPrefix}:cadence`;
  const pauseKey = `${keyPrefix}:pause`;
  /** The script's answer: the wait for the slot, and how long the chat is still busy (0 when a slot was taken). */
  async function run(paceKey: string, chatIntervalMs: number, again: boolean): Promise<[waitMs: number, chatBusyMs: number]> {
    const reply = await (
      await redis()
    ).eval(RESERVE, {
      keys: [cadenceKey, paceKey, pauseKey],
      arguments: [String(spacingMs), String(Math.ceil(chatIntervalMs)), again ? "again" : "first"],
    });
    // Lua's integers come back as numbers.
    return reply as [number, number];
  }
  return {
    async reserve(paceKey, chatIntervalMs) {
      const [waitMs, chatBusyMs] = await run(paceKey, chatIntervalMs, false);
      return chatBusyMs > 0 ? { chatBusyMs } : { waitMs };
    },
    // "again" skips the busy check: a slot is always taken.
    reserveAgain: async (paceKey, chatIntervalMs) => (await run(paceKey, chatIntervalMs, true))[0],
    async pausedFor() {
      return Math.max(0, await (await redis()).pTTL(pauseKey));
    },
    async pause(ms) {
      await (await redis()).eval(PAUSE, { keys: [pauseKey], arguments: [String(Math.max(1, Math.ceil(ms)))] });
    },
  };
}
