/**
 * Linking, shared by `/link <KEY> [SECRET]`, the guided conversation and a
 * pasted key: check the key with GET /v1/balance and store it only when the
 * service accepts it. The bot layer says what the outcome means.
 */
import type { FlowTracker } from "../flows.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError, type ServiceErrorJSON } from "../../platform/service/errors.js";
import type { ChatRecord } from "./chat-record.js";
import type { ChatRepository } from "./chat-repository.js";

/** JSON-serializable (it is recorded by the conversation replay engine). */
export type KeyCheck =
  | { kind: "ok"; availableSun: number; depositAddress: string | null }
  | { kind: "no-wallet" }
  | { kind: "unavailable"; error: ServiceErrorJSON }
  | { kind: "refused"; error: ServiceErrorJSON };

/** Printable ASCII without spaces, as an HTTP header carries it. */
const ONE_WORD = /^[\x21-\x7e]{8,512}$/;

/**
 * The service's credentials carry their kind in a prefix (`whsec_…` webhook
 * secrets, `sk_…` API keys): a secret pasted where the key belongs (or the
 * other way round) is told apart before anything is sent, so a webhook
 * secret never reaches the service as `Bearer whsec_…`.
 */
export function credentialKind(text: string): "api_key" | "webhook_secret" | undefined {
  if (/^whsec[_-]/i.test(text)) return "webhook_secret";
  if (/^sk[_-]/i.test(text)) return "api_key";
  return undefined;
}

/** One word that is not a webhook secret. */
export function looksLikeApiKey(text: string): boolean {
  return ONE_WORD.test(text) && credentialKind(text) !== "webhook_secret";
}

/** One word that is not an API key. */
export function looksLikeWebhookSecret(text: string): boolean {
  return ONE_WORD.test(text) && credentialKind(text) !== "api_key";
}

export async function checkKey(service: ServiceClient, apiKey: string): Promise<KeyCheck> {
  try {
    const balance = await service.getBalance(apiKey);
    return { kind: "ok", availableSun: balance.availableSun, depositAddress: balance.depositAddress };
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    if (error.isNotFound) return { kind: "no-wallet" };
    return { kind: error.isUnavailable ? "unavailable" : "refused", error: error.toJSON() };
  }
}

/**
 * Stores a checked key. A chat that was linked to another account stops
 * following that account's records here (its history stays with it).
 */
export async function storeLink(
  deps: { chats: Pick<ChatRepository, "account" | "link" | "accountChats">; flows: { tracker: Pick<FlowTracker, "stopChat"> } },
  chatId: number,
  input: {
    apiKey: string;
    webhookSecret: string | undefined;
    check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }>;
    /** The linking user's Telegram language: the chat's alerts speak it until /language is chosen. */
    languageCode?: string | undefined;
    /** What the chat is called: the account's other chats name it. */
    title?: string | undefined;
  },
): Promise<{ record: ChatRecord; relinked: boolean; sharedRoute: boolean }> {
  const before = (await deps.chats.account(chatId))?.id;
  const record = await deps.chats.link(chatId, {
    apiKey: input.apiKey,
    webhookSecret: input.webhookSecret,
    depositAddress: input.check.kind === "ok" ? input.check.depositAddress : null,
    languageCode: input.languageCode,
    title: input.title,
  });
  if (before !== undefined && before !== record.accountId) await deps.flows.tracker.stopChat(chatId);
  // Another chat of the account has the same route: the key's one callback URL, kept.
  const others = record.accountId === undefined ? [] : (await deps.chats.accountChats(record.accountId)).filter((c) => c !== chatId);
  return { record, relinked: before !== undefined, sharedRoute: others.length > 0 };
}
