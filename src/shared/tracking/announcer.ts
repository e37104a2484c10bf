import type { Logger } from "pino";
import type { AnnouncedMemory } from "./announced-memory.js";
import { localDetails } from "./change-details.js";
import type { ItemLeases } from "./item-leases.js";
import { itemKey, type TrackedItem, type TrackedRecord } from "./tracked-item.js";
import type { TrackerDeps } from "./tracker-types.js";

/**
 * "announced" (here or before, by any process); "failed" (rendering threw: offered again after a backoff);
 * "busy" (another process is announcing it right now, or died doing so: its claim is short, so look again soon).
 */
export type AnnounceOutcome = "announced" | "failed" | "busy";

export type Announce = (item: TrackedItem, tracked: TrackedRecord, final: boolean, seenAtMs: number) => Promise<AnnounceOutcome>;

export interface AnnouncerDeps extends Pick<TrackerDeps, "onChange" | "history"> {
  announced: AnnouncedMemory;
  held: Pick<ItemLeases, "announcing">;
  logger: Logger;
}

/**
 * Tells the tracker's listener about a status once across every process: the
 * shared memory of what was announced, checked again under a short claim of
 * its own, so two processes racing on one change announce it once.
 */
export function createAnnouncer({ announced, held, logger, onChange, history }: AnnouncerDeps): Announce {
  async function announceOnce(item: TrackedItem, tracked: TrackedRecord, final: boolean, seenAtMs: number): Promise<AnnounceOutcome> {
    const status = tracked.record.status;
    const key = { chatId: item.chatId, kind: item.kind, id: item.id, status };
    const entry = await history?.get(item.chatId, item.kind, item.id);
    const local = item.kind === "broadcast" ? localDetails(entry) : undefined;
    // The same time the history stamps right after (unless it already has one).
    const fulfilledAtMs = tracked.kind === "order" && status === "fulfilled" ? (entry?.fulfilledAtMs ?? seenAtMs) : undefined;
    // The history knows a renewal from its placement on, also when a webhook started tracking it before the placer did.
    const renewalOf = item.renewalOf ?? entry?.renewalOf;
    try {
      await onChange({
        ...tracked,
        chatId: item.chatId,
        previousStatus: item.status,
        final,
        origin: item.origin,
        ...(item.cardMessageId === undefined ? {} : { cardMessageId: item.cardMessageId }),
        ...(item.cardStatus === undefined ? {} : { cardStatus: item.cardStatus }),
        ...(item.locale === undefined ? {} : { locale: item.locale }),
        ...(local === undefined ? {} : { local }),
        ...(fulfilledAtMs === undefined ? {} : { fulfilledAtMs }),
        ...(renewalOf === undefined ? {} : { renewalOf }),
      });
    } catch (error) {
      logger.warn({ err: error, id: item.id, status }, "announcing a change failed; will retry");
      return "failed";
    }
    await announced.mark(key);
    return "announced";
  }

  /** Announces `status` unless it already was. */
  return async (item, tracked, final, seenAtMs) => {
    const key = { chatId: item.chatId, kind: item.kind, id: item.id, status: tracked.record.status };
    if (await announced.has(key)) return "announced";
    return held.announcing(`${itemKey(item.chatId, item.kind, item.id)}_${key.status}`, async () => {
      // Whoever announced it between the look above and the claim released it marked first.
      if (await announced.has(key)) return "announced" as const;
      return announceOnce(item, tracked, final, seenAtMs);
    });
  };
}
