/**
 * The flows of the bot by id, with the JSON arguments they are entered with: a feature opens another's flow
 * (Rent again opens the order flow, Save an address the address book's) by its id, `ctx.enterFlow(id, args)`,
 * without importing it. src/bot/conversations/index.ts registers each id with its builder.
 */

export const LINK_CONVERSATION = "link";

export const ORDER_CONVERSATION = "order";

/** JSON arguments of `ctx.enterFlow(ORDER_CONVERSATION, args)`. */
export interface OrderConversationArgs {
  /** Start in batch mode (/batch, or a .csv document sent outside a flow). */
  batch?: boolean;
  /** A .csv document to read first. */
  document?: { fileId: string; fileSize?: number };
  /** Parts already known (one-shot command missing a part, deep link with amount and duration). */
  prefill?: { address?: string; amount?: number; durationSec?: number };
  /** Lines sent with /batch: read as the batch's first answer. */
  lines?: string;
}

export const ADDRESSES_CONVERSATION = "addresses";

/** JSON arguments: an address to rename, or one to add (only its label is asked); without either, a new entry is added (address first, then its label). */
export interface AddressesConversationArgs {
  rename?: string;
  add?: string;
  /** The address book card the flow was opened from: redrawn with the saved entry. */
  card?: number;
}

export const SEND_CONVERSATION = "send";

/** What `/send` was given before the guided steps take over: the recipient, when typed. */
export interface SendConversationArgs {
  who?: string;
}

export const BROADCAST_CONVERSATION = "broadcast";

export const KEEP_CONVERSATION = "keep";

export const WEBHOOK_SECRET_CONVERSATION = "webhook-secret";
