/**
 * Linking, shared by `/link <KEY> [SECRET]` and the guided conversation:
 * check the key with GET /v1/balance, store it only when the service accepts
 * it, and describe the outcome.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { ChatRecord } from "../../core/chats/chat-record.js";
import type { ServiceClient } from "../../core/service/client.js";
import { ServiceError, type ServiceErrorJSON } from "../../core/service/errors.js";
import type { BotDeps } from "../deps.js";
import { sentKeyErrorText } from "./error-text.js";
import { formatTrx } from "./format.js";
import { code, translate } from "./html.js";

/** JSON-serializable (it is recorded by the conversation replay engine). */
export type KeyCheck =
  | { kind: "ok"; availableSun: number; depositAddress: string | null }
  | { kind: "no-wallet" }
  | { kind: "unavailable"; error: ServiceErrorJSON }
  | { kind: "refused"; error: ServiceErrorJSON };

/** Printable ASCII without spaces, as an HTTP header carries it. */
export function looksLikeApiKey(text: string): boolean {
  return /^[\x21-\x7e]{8,512}$/.test(text);
}

export const looksLikeWebhookSecret = looksLikeApiKey;

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
  if (before !== undefined && before !== record.accountId) await deps.flows?.tracker.stopChat(chatId);
  return { record, relinked: before !== undefined };
}

type Translator = Pick<I18nFlavor, "t">;

/** Text for a check that stored nothing. */
export function notStoredText(ctx: Translator, check: Extract<KeyCheck, { kind: "unavailable" | "refused" }>, locale: string): string {
  if (check.kind === "unavailable") return translate(ctx, "link-unavailable");
  return `${sentKeyErrorText(ctx, ServiceError.from(check.error), locale)}\n\n${translate(ctx, "link-not-stored")}`;
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
