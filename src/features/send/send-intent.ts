import { createHash, randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";

/**
 * A USDT transfer the chat asked for, from the quote to the signed transaction: who receives how much, on
 * which contract, and the one-time signing link. Kept in the store so the quote's buttons and the link work
 * across restarts and processes.
 */

/** How long a signing link lives: long enough to open a wallet on another device, short enough to be worthless later. */
export const SIGNING_LINK_TTL_MS = 15 * 60_000;
/** 144 bits of randomness, base64url: 24 characters in the link. */
const TOKEN_BYTES = 18;
/** An intent outlives its link by this much, so a late press is told "expired" rather than "unknown button". */
const INTENT_RETENTION_MS = 24 * 60 * 60_000;

export const SEND_STATES = [
  /** Quoted: Confirm not tapped yet. */
  "quoted",
  /** Confirmed: a signing link is out. */
  "signing",
  /** A signed transaction came back through the link and was handed to the broadcast submitter. */
  "signed",
  "cancelled",
] as const;
export type SendState = (typeof SEND_STATES)[number];

const intentSchema = z.object({
  intentId: z.string(),
  chatId: z.number().int(),
  /** The chat's link when quoted: a later link, of any account, never sends it. */
  linkId: z.string().optional(),
  to: z.string(),
  label: z.string().optional(),
  /** USDT in its smallest unit (6 decimals), a decimal integer string. */
  amountAtomic: z.string().regex(/^\d+$/),
  usdtContract: z.string(),
  /** The fee the caps and the second tap reckon with: the first-time recipient's estimate, the higher one. */
  feeSun: z.string().regex(/^\d+$/),
  /** The estimate to a recipient that already holds USDT, shown beside `feeSun` on the signing page. */
  holderFeeSun: z.string().regex(/^\d+$/).optional(),
  createdAtMs: z.number().int(),
  state: z.enum(SEND_STATES),
  locale: z.string(),
  /** The quote's message, which becomes the broadcast's card. */
  messageId: z.number().int().optional(),
  /** The QR code of the live link, sent on request: removed once that link is dead. */
  qrMessageId: z.number().int().optional(),
  /** sha256 of the live link's token: the store never holds a working link. */
  tokenHash: z.string().optional(),
  linkExpiresAtMs: z.number().int().optional(),
  /** Who spent the link (a random mark of the request that did). */
  spentBy: z.string().optional(),
  /** The broadcast draft the signed transaction became. */
  draftId: z.string().optional(),
});
export type SendIntent = z.infer<typeof intentSchema>;
export type NewSendIntent = Omit<SendIntent, "intentId" | "createdAtMs" | "state">;

/** What a link's token opens, or why it opens nothing. */
export type LinkLookup = { ok: true; intent: SendIntent } | { ok: false; reason: "unknown" | "expired" | "used" };

export interface SendIntents {
  create(intent: NewSendIntent, nowMs: number): Promise<SendIntent>;
  get(intentId: string): Promise<SendIntent | undefined>;
  update(intentId: string, fn: (intent: SendIntent) => SendIntent): Promise<SendIntent | undefined>;
  /** Moves a quoted intent to `signing` with a new link (a confirmed one gets a fresh link); the token, once. */
  issueLink(intentId: string, nowMs: number): Promise<{ intent: SendIntent; token: string } | undefined>;
  /** The intent a token opens while its link is live. */
  lookup(token: string, nowMs: number): Promise<LinkLookup>;
  /**
   * Spends the link: the first caller gets the intent, now `signed`; every later one, in any process, is told
   * `used`. Done before anything is sent, so one link never sends twice.
   */
  spend(token: string, nowMs: number): Promise<LinkLookup>;
}

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
/** A token as the link carries it: base64url of TOKEN_BYTES. */
export const isTokenShaped = (text: string): boolean => /^[A-Za-z0-9_-]{24}$/.test(text);

export function createSendIntents({ store, logger }: { store: StoreBackend; logger: Logger }): SendIntents {
  const records = createRecordStore({ kv: store.namespace("send-intents"), schema: intentSchema, version: 1, logger, name: "send-intents" });
  const links = store.namespace("send-links");

  async function byToken(token: string): Promise<SendIntent | undefined> {
    if (!isTokenShaped(token)) return undefined;
    const intentId = await links.get(hashToken(token));
    return typeof intentId === "string" ? records.get(intentId) : undefined;
  }

  const judge = (intent: SendIntent | undefined, token: string, nowMs: number): LinkLookup => {
    if (!intent || intent.tokenHash !== hashToken(token)) return { ok: false, reason: "unknown" };
    if (intent.state === "signed") return { ok: false, reason: "used" };
    if (intent.state !== "signing" || (intent.linkExpiresAtMs ?? 0) <= nowMs) return { ok: false, reason: "expired" };
    return { ok: true, intent };
  };

  return {
    async create(fields, nowMs) {
      const intent: SendIntent = { ...fields, intentId: randomBytes(8).toString("hex"), createdAtMs: nowMs, state: "quoted" };
      await records.set(intent.intentId, intent, INTENT_RETENTION_MS);
      return intent;
    },
    get: (intentId) => records.get(intentId),
    update: (intentId, fn) => records.update(intentId, (current) => (current === undefined ? undefined : fn(current)), INTENT_RETENTION_MS),
    async issueLink(intentId, nowMs) {
      const token = randomBytes(TOKEN_BYTES).toString("base64url");
      const linkExpiresAtMs = nowMs + SIGNING_LINK_TTL_MS;
      const intent = await records.update(
        intentId,
        (current) =>
          current === undefined || (current.state !== "quoted" && current.state !== "signing")
            ? current
            : { ...current, state: "signing", tokenHash: hashToken(token), linkExpiresAtMs },
        INTENT_RETENTION_MS,
      );
      if (intent?.tokenHash !== hashToken(token)) return undefined;
      await links.set(hashToken(token), intentId, SIGNING_LINK_TTL_MS);
      return { intent, token };
    },
    async lookup(token, nowMs) {
      return judge(await byToken(token), token, nowMs);
    },
    async spend(token, nowMs) {
      const found = await byToken(token);
      const before = judge(found, token, nowMs);
      if (!before.ok) return before;
      // Each try marks the intent with its own nonce: only the writer whose mark stuck spent the link.
      const nonce = randomBytes(8).toString("hex");
      const after = await records.update(
        before.intent.intentId,
        (current) => (current !== undefined && judge(current, token, nowMs).ok ? { ...current, state: "signed", spentBy: nonce } : current),
        INTENT_RETENTION_MS,
      );
      // The mapping stays until its own expiry, so a second use is told "used", not "unknown".
      if (after?.spentBy !== nonce) return judge(after, token, nowMs);
      return { ok: true, intent: after };
    },
  };
}
