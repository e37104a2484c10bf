import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import { createChatIndex } from "../../platform/store/chat-index.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
import type { BroadcastSummary } from "./precheck.js";

/**
 * A checked signed transaction waiting for the user's Confirm. Kept in the
 * store so the summary's buttons work after a restart and a double tap is
 * recognized.
 */

export const DRAFT_STATES = ["open", "submitting", "unknown", "submitted", "cancelled"] as const;
export type DraftState = (typeof DRAFT_STATES)[number];

const feeEstimateSchema = z.object({
  units: z.number().int(),
  feeSun: z.string(),
  recipient: z.enum(["holder", "first_time"]).exactOptional(),
});

/** What a broadcast's transaction does, read from its signed bytes (the summary's and the card's words). */
const contractDetailsSchema = z.object({
  resource: z.string().exactOptional(),
  assetName: z.string().exactOptional(),
  votes: z.array(z.object({ address: z.string(), count: z.string() })).exactOptional(),
  lock: z.boolean().exactOptional(),
  callValueSun: z.string().exactOptional(),
});

export const broadcastSummarySchema = z.object({
  txId: z.string(),
  kind: z.enum(["usdt", "trx", "trc20", "system", "contract"]),
  contractType: z.string(),
  fromAddress: z.string(),
  toAddress: z.string().exactOptional(),
  amountAtomic: z.string().exactOptional(),
  amountSun: z.string().exactOptional(),
  contractAddress: z.string().exactOptional(),
  details: contractDetailsSchema.exactOptional(),
  permissionId: z.number().int().exactOptional(),
  memoHex: z.string().exactOptional(),
  expirationMs: z.number().int(),
  resource: z.enum(["ENERGY", "BANDWIDTH"]),
  estimates: z.array(feeEstimateSchema),
}) satisfies z.ZodType<BroadcastSummary>;

export const broadcastDraftSchema = z.object({
  draftId: z.string(),
  chatId: z.number().int(),
  signedTx: z.record(z.string(), z.unknown()),
  summary: broadcastSummarySchema,
  createdAtMs: z.number().int(),
  state: z.enum(DRAFT_STATES),
  broadcastId: z.string().optional(),
  lastErrorCode: z.string().optional(),
  messageId: z.number().int().optional(),
  /** The chat's link when checked (`ChatRecord.linkId`): a later link, of any account, never confirms it. */
  linkId: z.string().optional(),
});
export type BroadcastDraft = z.infer<typeof broadcastDraftSchema>;

/** The longest a draft is kept (java-tron refuses an expiration further ahead anyway). */
const DRAFT_RETENTION_MS = 24 * 60 * 60_000;
/**
 * The draft holds the signed transaction, which is of use only until its expiration (Confirm,
 * Retry, Resend after `failed`): it is kept that long plus this margin, in which a late press or a
 * restart's recovery is still told "expired" rather than "unknown button", and never longer.
 */
const DRAFT_MARGIN_MS = 5 * 60_000;

function retentionMs(expirationMs: number, nowMs: number): number {
  return Math.min(DRAFT_RETENTION_MS, Math.max(DRAFT_MARGIN_MS, expirationMs - nowMs + DRAFT_MARGIN_MS));
}

export interface DraftStore {
  create(chatId: number, signedTx: Record<string, unknown>, summary: BroadcastSummary, nowMs: number, linkId?: string): Promise<BroadcastDraft>;
  get(draftId: string): Promise<BroadcastDraft | undefined>;
  update(draftId: string, fn: (d: BroadcastDraft) => BroadcastDraft): Promise<BroadcastDraft | undefined>;
  /** Ids of the chat's newest drafts, newest first (what /cancel looks through). */
  recentIds(chatId: number): Promise<string[]>;
}

export function createDraftStore({ store, logger, now = Date.now }: { store: StoreBackend; logger: Logger; now?: () => number }): DraftStore {
  const records = createRecordStore({ kv: store.namespace("broadcast-drafts"), schema: broadcastDraftSchema, version: 1, logger, name: "broadcast-drafts" });
  const byChat = createChatIndex(store.namespace("broadcast-drafts-by-chat"), { max: 20, ttlMs: DRAFT_RETENTION_MS });
  return {
    async create(chatId, signedTx, summary, nowMs, linkId) {
      const draft: BroadcastDraft = {
        draftId: randomBytes(8).toString("hex"),
        chatId,
        signedTx,
        summary,
        createdAtMs: nowMs,
        state: "open",
        ...(linkId === undefined ? {} : { linkId }),
      };
      await records.set(draft.draftId, draft, retentionMs(summary.expirationMs, nowMs));
      await byChat.add(chatId, draft.draftId);
      return draft;
    },
    recentIds: (chatId) => byChat.list(chatId),
    get: (draftId) => records.get(draftId),
    async update(draftId, fn) {
      // The summary (and its expiration) never changes: the retention is read off the draft as it is.
      const current = await records.get(draftId);
      if (!current) return undefined;
      return records.update(draftId, (d) => (d === undefined ? undefined : fn(d)), retentionMs(current.summary.expirationMs, now()));
    },
  };
}
