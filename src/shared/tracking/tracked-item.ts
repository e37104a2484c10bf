import { z } from "zod";
import type { HistoryEntry } from "../orders/order-history.js";
import type { Broadcast, Order } from "../../platform/service/schemas.js";
import type { TrackInput } from "./tracker-types.js";

export const TRACK_KINDS = ["order", "broadcast"] as const;
export type TrackKind = (typeof TRACK_KINDS)[number];

export const trackedItemSchema = z.object({
  chatId: z.number().int(),
  kind: z.enum(TRACK_KINDS),
  id: z.string(),
  /** Last status seen (and handled); undefined before the first read. */
  status: z.string().optional(),
  startedAtMs: z.number().int(),
  /** Past this the tracker gives up and tells the chat to use /track. */
  deadlineMs: z.number().int(),
  /** Polls since the last change; drives the backoff. */
  attempt: z.number().int().nonnegative(),
  cardMessageId: z.number().int().optional(),
  /** The status the card already shows (set by whoever drew it), so it is not redrawn unchanged. */
  cardStatus: z.string().optional(),
  /** "bot": created through the bot (it has a card); "hint": first seen through a webhook. */
  origin: z.enum(["bot", "hint"]),
  /** The chat's language when tracking started (the Telegram language may be all the bot knows). */
  locale: z.string().optional(),
  /**
   * The bot is drawing the first card right now: the first read waits for it
   * (`cardShown` / `cardNotShown`), so a status is announced by the card or by
   * the tracker, never by both.
   */
  pendingCard: z.boolean().optional(),
  /** order: a keep plan's renewal (the plan's id): its changes are drawn on the plan's card. */
  renewalOf: z.string().optional(),
  /** When the next read is due: whoever picks the item up (a restart, a takeover) keeps to it. */
  dueAtMs: z.number().int().optional(),
  /** The reads answering 404 in a row, and when the first of them came (not-found.ts). */
  notFound: z.object({ sinceMs: z.number().int(), reads: z.number().int().positive() }).optional(),
});
export type TrackedItem = z.infer<typeof trackedItemSchema>;

export interface BackoffOptions {
  minDelayMs: number;
  maxDelayMs: number;
}

/** 1 s, 2 s, 4 s … capped at 30 s by default; reset after every change. */
export function backoffDelay(attempt: number, { minDelayMs, maxDelayMs }: BackoffOptions): number {
  const factor = 2 ** Math.min(attempt, 30);
  return Math.min(maxDelayMs, minDelayMs * factor);
}

/** What a new item starts as: the caller's card and status, and its horizon. */
export function newTrackedItem(
  input: TrackInput,
  origin: TrackedItem["origin"],
  at: number,
  horizons: { orderHorizonMs: number; broadcastMarginMs: number },
): TrackedItem {
  const deadlineMs = input.kind === "order" ? at + horizons.orderHorizonMs : (input.txExpirationMs ?? at + 10 * 60_000) + horizons.broadcastMarginMs;
  return {
    chatId: input.chatId,
    kind: input.kind,
    id: input.id,
    startedAtMs: at,
    deadlineMs,
    attempt: 0,
    origin,
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.cardMessageId === undefined ? {} : { cardMessageId: input.cardMessageId, ...(input.status === undefined ? {} : { cardStatus: input.status }) }),
    ...(input.locale === undefined ? {} : { locale: input.locale }),
    ...(input.renewalOf === undefined ? {} : { renewalOf: input.renewalOf }),
    ...(input.pendingCard && input.status === undefined ? { pendingCard: true } : {}),
  };
}

export function itemKey(chatId: number, kind: TrackKind, id: string): string {
  return `${chatId}_${kind}_${id}`;
}

export type TrackedRecord = { kind: "order"; record: Order } | { kind: "broadcast"; record: Broadcast };

/** A history line for a record the bot did not create. */
export function historyEntryOf(tracked: TrackedRecord, nowMs: number): HistoryEntry {
  const createdAtMs = Date.parse(tracked.record.createdAt);
  const at = Number.isNaN(createdAtMs) ? nowMs : createdAtMs;
  if (tracked.kind === "order") {
    const o = tracked.record;
    return {
      kind: "order",
      id: o.orderId,
      madeElsewhere: true,
      createdAtMs: at,
      status: o.status,
      address: o.receiver,
      amount: o.resourceAmount,
      durationSec: o.durationSec,
      totalCostSun: o.totalCostSun,
      ...(o.status === "fulfilled" ? { fulfilledAtMs: nowMs } : {}),
    };
  }
  const b = tracked.record;
  return {
    kind: "broadcast",
    id: b.broadcastId,
    madeElsewhere: true,
    createdAtMs: at,
    status: b.status,
    address: b.toAddress,
    txId: b.txId,
    totalCostSun: b.totalCostSun,
    // The service's "tron" covers TRX transfers and contract calls alike: say nothing rather than guess.
    ...(b.kind === "usdt" ? { txKind: "usdt" } : {}),
    ...(b.amountAtomic === undefined ? {} : { amountAtomic: b.amountAtomic }),
  };
}
