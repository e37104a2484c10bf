/**
 * Linking, shared by `/link <KEY> [SECRET]`, the guided conversation and a
 * pasted key: check the key with GET /v1/balance and store it only when the
 * service accepts it. The bot layer says what the outcome means.
 */
import type { FlowTracker } from "../flows.js";
import type { ServiceClient } from "../service/client.js";
import { CLIENT_ERROR_CODES, ServiceError, type ServiceErrorInit } from "../service/errors.js";
import type { ChatRecord } from "./chat-record.js";
import type { ChatRepository } from "./chat-repository.js";

/** JSON-serializable (it is recorded by the conversation replay engine). */
export type KeyCheck =
  | { kind: "ok"; availableSun: number; depositAddress: string | null }
  | { kind: "no-wallet" }
  | { kind: "unavailable"; error: ServiceErrorInit }
  | { kind: "refused"; error: ServiceErrorInit };

const UNAVAILABLE: ReadonlySet<string> = new Set([
  CLIENT_ERROR_CODES.timeout,
  CLIENT_ERROR_CODES.connection,
  CLIENT_ERROR_CODES.badErrorBody,
  CLIENT_ERROR_CODES.badResponse,
  "rate_limited",
  "broadcast.upstream_unavailable",
]);

/** Printable ASCII without spaces, as an HTTP header carries it. */
export function looksLikeApiKey(text: string): boolean {
  return /^[\x21-\x7e]{8,512}$/.test(text);
}

export const looksLikeWebhookSecret = looksLikeApiKey;

function plain(error: ServiceError): ServiceErrorInit {
  return {
    code: error.code,
    status: error.status,
    detail: error.detail,
    requestId: error.requestId,
    seenIp: error.seenIp,
    requiredSun: error.requiredSun,
    retryAfterSec: error.retryAfterSec,
  };
}

export async function checkKey(service: ServiceClient, apiKey: string): Promise<KeyCheck> {
  try {
    const balance = await service.getBalance(apiKey);
    return { kind: "ok", availableSun: balance.availableSun, depositAddress: balance.depositAddress };
  } catch (error) {
    if (!ServiceError.isInstance(error)) throw error;
    if (error.code === "not_found") return { kind: "no-wallet" };
    if (UNAVAILABLE.has(error.code) || error.status >= 500) return { kind: "unavailable", error: plain(error) };
    return { kind: "refused", error: plain(error) };
  }
}

/**
 * Stores a checked key. A chat that was linked to another account stops
 * following that account's records here (its history stays with it).
 */
export async function storeLink(
  deps: { chats: Pick<ChatRepository, "account" | "link">; flows: { tracker: Pick<FlowTracker, "stopChat"> } },
  chatId: number,
  input: { apiKey: string; webhookSecret: string | undefined; check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }> },
): Promise<{ record: ChatRecord; relinked: boolean }> {
  const before = (await deps.chats.account(chatId))?.id;
  const record = await deps.chats.link(chatId, {
    apiKey: input.apiKey,
    webhookSecret: input.webhookSecret,
    depositAddress: input.check.kind === "ok" ? input.check.depositAddress : null,
  });
  if (before !== undefined && before !== record.accountId) await deps.flows.tracker.stopChat(chatId);
  return { record, relinked: before !== undefined };
}
