import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * The journal of confirmations whose outcome is not recorded yet: an entry is
 * written before a request that may charge is sent, and removed only once the
 * outcome is known and tracked (or certainly nothing was charged). Whatever
 * is left here at start-up (a crash, a kill, a timeout) is resolved then, so
 * a charge can never go unannounced. Small by construction: it holds only
 * confirmations in flight or unresolved, never the history.
 */

export const PENDING_KINDS = ["order", "broadcast"] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

export const pendingSchema = z.object({
  kind: z.enum(PENDING_KINDS),
  /** quoteId for orders, draftId for broadcasts. */
  id: z.string(),
  chatId: z.number().int(),
  /** The chat's language at the confirm, for what the resolution tells it. */
  locale: z.string().optional(),
  sinceMs: z.number().int(),
  /**
   * Which API key the confirmation was sent with (`keyTagOf`): a chat re-linked
   * to another account since must not have it replayed there, where the same
   * Idempotency-Key would make a second order.
   */
  keyTag: z.string().optional(),
});
export type PendingConfirmation = z.infer<typeof pendingSchema>;

/** A short one-way tag of an API key (64 bits of SHA-256): tells keys apart, reveals nothing of them. */
export function keyTagOf(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

export interface PendingConfirmations {
  add(entry: PendingConfirmation): Promise<void>;
  remove(kind: PendingKind, id: string): Promise<void>;
  list(): Promise<PendingConfirmation[]>;
}

/** Past the service's 24 h replay window nothing can be resolved by replaying any more. */
const PENDING_RETENTION_MS = 25 * 60 * 60_000;

/** Where the journal lives: its records are also the recovery's timed jobs (`confirmation-recovery.ts`). */
export const PENDING_NAMESPACE = "pending-confirmations";
export const PENDING_VERSION = 1;

export function createPendingConfirmations({ store, logger }: { store: StoreBackend; logger: Logger }): PendingConfirmations {
  const records = createRecordStore({
    kv: store.namespace(PENDING_NAMESPACE),
    schema: pendingSchema,
    version: PENDING_VERSION,
    logger,
    name: PENDING_NAMESPACE,
  });
  const key = (kind: PendingKind, id: string): string => `${kind}:${id}`;
  return {
    add: (entry) => records.set(key(entry.kind, entry.id), entry, PENDING_RETENTION_MS),
    async remove(kind, id) {
      await records.delete(key(kind, id));
    },
    async list() {
      const out: PendingConfirmation[] = [];
      for await (const [, entry] of records.list()) out.push(entry);
      return out.sort((a, b) => a.sinceMs - b.sinceMs);
    },
  };
}
