import type { HistoryEntry } from "../orders/order-history.js";
import type { TrackedItem } from "./tracked-item.js";
import type { TrackerChange, TrackInput } from "./tracker-types.js";

/** The locally read parts of a broadcast's history entry, for its card. */
export function localDetails(entry: HistoryEntry | undefined): TrackerChange["local"] {
  if (!entry) return undefined;
  const { txKind, amountAtomic, amountSun, contractType, contractAddress, details } = entry;
  return {
    ...(txKind === undefined ? {} : { txKind }),
    ...(amountAtomic === undefined ? {} : { amountAtomic }),
    ...(amountSun === undefined ? {} : { amountSun }),
    ...(contractType === undefined ? {} : { contractType }),
    ...(contractAddress === undefined ? {} : { contractAddress }),
    ...(details === undefined ? {} : { details }),
  };
}

export function withoutPendingCard(item: TrackedItem): TrackedItem {
  const { pendingCard: _drawn, ...rest } = item;
  return rest;
}

/**
 * The item a poll starts from: this process's own (status, backoff) with
 * what other processes wrote to the stored copy since (a card drawn by a
 * Refresh there, a new card, its language, the first card's report).
 */
export function withStoredCard(mine: TrackedItem, stored: TrackedItem | undefined): TrackedItem {
  if (!stored) return mine;
  const merged: TrackedItem = {
    ...withoutPendingCard(mine),
    origin: stored.origin,
    ...(stored.cardMessageId === undefined ? {} : { cardMessageId: stored.cardMessageId }),
    ...(stored.cardStatus === undefined ? {} : { cardStatus: stored.cardStatus }),
    ...(stored.locale === undefined ? {} : { locale: stored.locale }),
    ...(stored.renewalOf === undefined ? {} : { renewalOf: stored.renewalOf }),
    ...(mine.status === undefined && stored.status !== undefined ? { status: stored.status } : {}),
  };
  return mine.pendingCard && stored.pendingCard ? { ...merged, pendingCard: true } : merged;
}

/**
 * What `settle` writes over the stored item: this process's read, except the
 * card when another process drew a newer one since (its message id differs),
 * so its next status goes to the card the chat sees last.
 */
export function withNewerCard(mine: TrackedItem, stored: TrackedItem | undefined): TrackedItem {
  if (stored?.cardMessageId === undefined || stored.cardMessageId === mine.cardMessageId) return mine;
  const { cardStatus: _old, ...rest } = mine;
  return {
    ...rest,
    cardMessageId: stored.cardMessageId,
    ...(stored.cardStatus === undefined ? {} : { cardStatus: stored.cardStatus }),
    ...(stored.locale === undefined ? {} : { locale: stored.locale }),
  };
}

/** A `track` of an item known already (a webhook may have raced ahead of the bot): keep what it saw, add the card. */
export function withTrackInput(
  existing: TrackedItem,
  input: Pick<TrackInput, "status" | "cardMessageId" | "locale" | "pendingCard" | "renewalOf">,
): TrackedItem {
  const { cardStatus: previousCard, ...rest } = existing;
  // A new card shows what its caller drew; the old card's status says nothing about it.
  const cardStatus = input.cardMessageId === undefined ? previousCard : input.status;
  return {
    ...rest,
    origin: "bot",
    ...(input.cardMessageId === undefined ? {} : { cardMessageId: input.cardMessageId }),
    ...(cardStatus === undefined ? {} : { cardStatus }),
    ...(input.locale === undefined ? {} : { locale: input.locale }),
    ...(input.renewalOf === undefined ? {} : { renewalOf: input.renewalOf }),
    ...(input.pendingCard && rest.status === undefined ? { pendingCard: true } : {}),
  };
}
