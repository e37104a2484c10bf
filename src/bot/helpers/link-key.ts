/**
 * Linking, shared by `/link <KEY> [SECRET]` and the guided conversation:
 * check the key with GET /v1/balance, store it only when the service accepts
 * it, and describe the outcome.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { ChatRecord } from "../../core/chats/chat-record.js";
import type { ServiceClient } from "../../core/service/client.js";
import { CLIENT_ERROR_CODES, ServiceError, type ServiceErrorInit } from "../../core/service/errors.js";
import type { BotDeps } from "../deps.js";
import { serviceErrorText } from "./error-text.js";
import { formatTrx } from "./format.js";
import { code, translate } from "./html.js";

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
  deps: Pick<BotDeps, "chats" | "flows">,
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

type Translator = Pick<I18nFlavor, "t">;

const LINK_REFUSALS: Readonly<Record<string, string>> = { "api_key.invalid": "link-key-invalid", "api_key.revoked": "link-key-revoked" };

/** Text for a check that stored nothing. */
export function notStoredText(ctx: Translator, check: Extract<KeyCheck, { kind: "unavailable" | "refused" }>, locale: string): string {
  if (check.kind === "unavailable") return translate(ctx, "link-unavailable");
  // The key was just sent, not one this chat holds: the generic texts ("the key of this chat") would misname it.
  const own = LINK_REFUSALS[check.error.code];
  if (own) return `${translate(ctx, own)}\n\n${translate(ctx, "link-not-stored")}`;
  return `${serviceErrorText(ctx, new ServiceError(check.error), locale)}\n\n${translate(ctx, "link-not-stored")}`;
}

/** Text after a successful link: balance or the missing wallet, the callback URL, the secret hint. */
export function linkedText(
  ctx: Translator,
  deps: Pick<BotDeps, "config">,
  result: { check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }>; routeId: string | undefined; hasSecret: boolean; relinked: boolean },
  locale: string,
): string {
  const parts = [translate(ctx, result.relinked ? "link-replaced" : "link-success")];
  if (result.check.kind === "ok") parts.push(translate(ctx, "link-balance", { availableTrx: formatTrx(result.check.availableSun, locale) }));
  else parts.push(translate(ctx, "link-no-wallet"));
  if (deps.config.publicUrl && result.routeId) {
    parts.push(translate(ctx, "link-callback-url", { url: code(`${deps.config.publicUrl}/hooks/${result.routeId}`) }));
  }
  parts.push(translate(ctx, result.hasSecret ? "link-secret-stored" : "link-secret-missing"));
  return parts.join("\n\n");
}
