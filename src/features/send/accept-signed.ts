import type { Logger } from "pino";
import { summarizeBroadcast } from "../../shared/broadcasts/precheck.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { Flows } from "../../shared/flows.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { Broadcast } from "../../platform/service/schemas.js";
import { isBroadcastFinished } from "../../platform/service/schemas.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import { code, translate } from "../../bot/helpers/html.js";
import type { Links } from "../../bot/helpers/links.js";
import { createDraftConfirmAgainKeyboard, createLimitsFixKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { limitRefusalText } from "../../bot/helpers/refusal-texts.js";
import { broadcastCardText, statusText, type Translator } from "../../bot/helpers/record-text.js";
import type { Translations } from "../../bot/i18n.js";
import { createBroadcastRetryKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";
import { formatTrx } from "../../bot/helpers/format.js";
import type { SendIntent, SendIntents } from "./send-intent.js";
import { checkSignedTransfer } from "./signed-transfer.js";

/** What the page is told; the chat hears the same in its own words. */
export type AcceptOutcome =
  | { status: "sent"; broadcastId: string }
  | { status: "already_sent"; txId: string }
  | { status: "dead"; reason: "unknown" | "expired" | "used" | "unlinked" }
  | { status: "mismatch" }
  | { status: "invalid"; reason: string }
  | { status: "refused"; code: string; message: string };

export interface AcceptSignedDeps {
  intents: SendIntents;
  flows: Pick<Flows, "drafts" | "submitter" | "history" | "tracker" | "limits" | "now">;
  chats: Pick<ChatRepository, "open">;
  pricing: Pick<PricingCache, "get">;
  service: Pick<ServiceClient, "getBroadcast">;
  push: Pick<PushQueue, "enqueue">;
  i18n: Translations;
  links: Links;
  logger: Logger;
}

/**
 * A signed transaction handed back through a signing link: checked against the intent, the link spent, then
 * broadcast with the chat's key through the same submitter (journal, caps, dedup) as a pasted one. The chat's
 * card follows by the push queue; the page gets the outcome.
 */
export function createSignedTransferAcceptor(deps: AcceptSignedDeps) {
  const log = deps.logger.child({ component: "send" });
  const translator = (locale: string): Translator => ({ t: (key, vars) => deps.i18n.t(locale, key, vars) });

  async function toCard(intent: SendIntent, suffix: string, text: string, reply_markup?: unknown): Promise<void> {
    if (intent.messageId === undefined) return;
    await deps.push.enqueue({
      id: `send:${intent.intentId}:${suffix}`,
      chatId: intent.chatId,
      method: "editMessageText",
      params: {
        chat_id: intent.chatId,
        message_id: intent.messageId,
        text,
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
        ...(reply_markup ? { reply_markup } : {}),
      },
      priority: "notice",
    });
  }

  async function replyToCard(intent: SendIntent, suffix: string, text: string): Promise<void> {
    await deps.push.enqueue({
      id: `send:${intent.intentId}:${suffix}`,
      chatId: intent.chatId,
      method: "sendMessage",
      params: {
        chat_id: intent.chatId,
        text,
        parse_mode: "HTML",
        ...(intent.messageId === undefined ? {} : { reply_parameters: { message_id: intent.messageId, allow_sending_without_reply: true } }),
      },
      priority: "notice",
    });
  }

  /** The outcome, and the language the page should say it in (the chat's; English for a link that opens nothing). */
  async function accept(token: string, body: string): Promise<{ outcome: AcceptOutcome; locale: string }> {
    const found = await deps.intents.lookup(token, deps.flows.now());
    if (!found.ok) return { outcome: { status: "dead", reason: found.reason }, locale: "en" };
    return { outcome: await acceptFor(found.intent, token, body), locale: found.intent.locale };
  }

  async function acceptFor(intent: SendIntent, token: string, body: string): Promise<AcceptOutcome> {
    const nowMs = deps.flows.now();
    const tr = translator(intent.locale);
    const checked = checkSignedTransfer(body, intent, nowMs);
    if (!checked.ok) {
      if (checked.reason !== "mismatch") {
        log.info({ intentId: intent.intentId, reason: checked.reason }, "signing page sent an unusable transaction");
        return { status: "invalid", reason: checked.reason };
      }
      log.warn({ intentId: intent.intentId, mismatch: checked.mismatch, txId: checked.tx.txId }, "signed transaction does not match the confirmed transfer");
      await replyToCard(
        intent,
        `mismatch:${checked.tx.txId.slice(0, 16)}`,
        translate(tr, "send-mismatch", { what: tr.t(`send-mismatch-${checked.mismatch}`) }),
      );
      return { status: "mismatch" };
    }
    const account = await deps.chats.open(intent.chatId);
    if (account === undefined || (intent.linkId !== undefined && account.record.linkId !== intent.linkId)) return { status: "dead", reason: "unlinked" };
    const spent = await deps.intents.spend(token, nowMs);
    if (!spent.ok) return { status: "dead", reason: spent.reason };
    // Its link is dead now: the QR code of it goes, the card says the rest.
    if (spent.intent.qrMessageId !== undefined) {
      await deps.push.enqueue({
        id: `send:${intent.intentId}:qr-gone`,
        chatId: intent.chatId,
        method: "deleteMessage",
        params: { chat_id: intent.chatId, message_id: spent.intent.qrMessageId },
      });
    }
    const { baseUnitPriceSun } = await deps.pricing.get();
    const draft = await deps.flows.drafts.create(intent.chatId, checked.signedTx, summarizeBroadcast(checked.tx, baseUnitPriceSun), nowMs, intent.linkId);
    await deps.intents.update(intent.intentId, (i) => ({ ...i, draftId: draft.draftId }));
    if (intent.messageId !== undefined) await deps.flows.drafts.update(draft.draftId, (d) => ({ ...d, messageId: intent.messageId! }));
    log.info({ intentId: intent.intentId, draftId: draft.draftId, txId: checked.tx.txId }, "signed transfer matches; broadcasting");
    // The chat's Confirm was the tap and the wallet's signature the second look: the second-tap threshold was asked before the link.
    const result = await deps.flows.submitter.submit({
      chatId: intent.chatId,
      draftId: draft.draftId,
      apiKey: account.apiKey,
      locale: intent.locale,
      confirmedAgain: true,
      drawsCard: true,
      ...(intent.messageId === undefined ? {} : { cardMessageId: intent.messageId }),
    });
    const locale = intent.locale;
    switch (result.status) {
      case "submitted": {
        await drawCard(intent, account.apiKey, result.broadcastId, result.initialStatus, tr);
        return { status: "sent", broadcastId: result.broadcastId };
      }
      case "duplicate": {
        const txId = result.draft.summary.txId;
        await toCard(intent, "duplicate", translate(tr, "send-wallet-sent-it", { txId: code(txId) }), {
          inline_keyboard: [[{ text: tr.t("buttons-explorer"), url: deps.links.transaction(txId) }]],
        });
        return { status: "already_sent", txId };
      }
      case "over_limit": {
        const text = limitRefusalText(tr, result.refusal, result.feeSun, locale);
        await toCard(intent, "over-limit", text, {
          inline_keyboard: [
            ...createLimitsFixKeyboard(tr, result.refusal).inline_keyboard,
            ...createDraftConfirmAgainKeyboard(tr, draft.draftId, formatTrx(result.feeSun, locale)).inline_keyboard,
          ],
        });
        return { status: "refused", code: `limits.${result.refusal.reason}`, message: text };
      }
      case "failed": {
        const text = serviceErrorText(tr, result.error, locale);
        const markup = textLinksMarkup(
          { ...tr, links: deps.links },
          errorTextKey(result.error),
          result.retryable ? createBroadcastRetryKeyboard(tr, draft.draftId) : undefined,
        );
        await toCard(intent, `failed:${result.error.code}`, text, "reply_markup" in markup ? markup.reply_markup : undefined);
        return { status: "refused", code: result.error.code, message: text };
      }
      case "expired":
        await toCard(intent, "expired", translate(tr, "broadcast-refused-expired"));
        return { status: "invalid", reason: "expired" };
      default:
        log.warn({ intentId: intent.intentId, status: result.status }, "signed transfer not sent");
        return { status: "refused", code: result.status, message: translate(tr, "error-internal") };
    }
  }

  /** The quote's message becomes the broadcast's card, as after a Confirm of a pasted transaction. */
  async function drawCard(intent: SendIntent, apiKey: string, broadcastId: string, initialStatus: string, tr: Translator): Promise<void> {
    const item = { chatId: intent.chatId, kind: "broadcast" as const, id: broadcastId };
    if (intent.messageId === undefined) return deps.flows.tracker.cardNotShown(item);
    let record: Broadcast | undefined;
    try {
      record = await deps.service.getBroadcast(apiKey, broadcastId);
    } catch (error) {
      if (!ServiceError.isInstance(error)) throw error;
      log.debug({ err: error }, "first read of a sent transfer failed; the tracker reads it later");
    }
    const status = record?.status ?? initialStatus;
    const { zone } = await deps.flows.limits.zoneOf(intent.chatId);
    const text = record
      ? broadcastCardText(tr, record, intent.locale, await deps.flows.history.get(intent.chatId, "broadcast", broadcastId), {
          nowMs: deps.flows.now(),
          timeZone: zone,
        })
      : translate(tr, "broadcast-accepted", { broadcastId: code(broadcastId), status: statusText(tr, initialStatus) });
    const keyboard = record && isBroadcastFinished(record.status) ? undefined : createTrackRefreshKeyboard(tr, "broadcast", broadcastId);
    await toCard(intent, "card", text, keyboard);
    await deps.flows.tracker.cardShown({ ...item, status, cardMessageId: intent.messageId });
  }

  return { accept };
}

export type SignedTransferAcceptor = ReturnType<typeof createSignedTransferAcceptor>;
