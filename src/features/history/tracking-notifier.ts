import type { InlineKeyboard } from "grammy";
import type { NotificationSettings } from "../../shared/chats/chat-record.js";
import type { RecoveryOutcome } from "../../shared/confirmations/confirmation-recovery.js";
import type { TrackKind } from "../../shared/tracking/tracked-item.js";
import type { TrackerChange, TrackerGiveUp } from "../../shared/tracking/tracker.js";
import { notifierZone, type NotifierDeps } from "../../bot/helpers/notifier-deps.js";
import type { ChatZone } from "../../shared/limits/chat-zone.js";
import { zoneOfferRow } from "../../bot/keyboards/zone-offer.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import { pushLinksMarkup, serviceLinkButtons } from "../../bot/keyboards/links.js";
import type { BatchNotifier } from "./batch-notifier.js";
import { code, escapeHtml, html, HTML, translate } from "../../bot/helpers/html.js";
import { finalText, recordCardText, type CardTiming, type Translator } from "../../bot/helpers/record-text.js";
import { canResend, delegationEndText } from "../../bot/helpers/expiry-text.js";
import { createFinishedBroadcastKeyboard, createFinishedOrderKeyboard } from "../../bot/keyboards/final-card.js";
import { createLinks } from "../../bot/helpers/links.js";
import type { AddressBook } from "../../shared/address-book.js";
import { withReceiverLabel } from "../../bot/helpers/receiver-label.js";
import type { ExpiryReminders } from "../expiry/index.js";
import { createBroadcastRetryKeyboard, createBroadcastTopUpKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { createRetryKeyboard, createTopUpRetryKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";
import { backgroundLocale } from "../../bot/i18n.js";

export interface TrackingNotifierDeps extends NotifierDeps {
  now?: () => number;
  /** Expiry reminders: a fulfilled order's card and notification carry the reminder switch. */
  reminders?: Pick<ExpiryReminders, "isScheduled">;
  /** Orders of a batch are shown on the batch's one card instead of their own. */
  batches?: Pick<BatchNotifier, "onOrderChange" | "onGiveUp">;
  /** The chats' address books: a receiver's label is shown beside its address. */
  addressBook?: Pick<AddressBook, "labelOf">;
}

export interface TrackingNotifier {
  onChange(change: TrackerChange): Promise<void>;
  onGiveUp(event: TrackerGiveUp): Promise<void>;
  /** A confirmation resolved after a restart did not go through: the chat hears why, with Retry where it is safe. */
  onRecovered(outcome: RecoveryOutcome): Promise<void>;
}

/**
 * Turns the tracker's changes into Telegram messages, all through the push
 * queue: the card edited in place (only to a status it does not show yet, so
 * no edit is empty; a waiting edit is replaced by the next, so only the latest
 * state goes), and one final notice per finished record. Where the chat has
 * the card, that notice is short: it replies to the card (Telegram notifies
 * the user of a new message, never of an edit) and leaves the buttons to the
 * card; it is queued first, at notice priority, so it takes the chat's first
 * slot and the card's edit follows. A chat without the card gets a
 * self-contained notice with the buttons. The chat's /settings silence
 * everything but the card. Job ids are derived from (chat, item, status), so
 * a change offered twice (a crash between queueing and remembering it) is
 * still delivered once.
 */
export function createTrackingNotifier(deps: TrackingNotifierDeps): TrackingNotifier {
  const now = deps.now ?? Date.now;
  const { i18n } = deps;
  const links = deps.links ?? createLinks({});

  /** In the chat's language (`backgroundLocale`) and zone; the item's locale is the one it was started in. */
  async function chatView(
    chatId: number,
    itemLocale: string | undefined,
  ): Promise<{ tr: Translator; locale: string; notify: NotificationSettings; blocked: boolean; zone: ChatZone }> {
    const [chat, zone] = await Promise.all([deps.chats.get(chatId), notifierZone(deps, chatId)]);
    const locale = backgroundLocale(chat, deps.defaultLocale, itemLocale);
    const tr: Translator = { t: (key, vars) => i18n.t(locale, key, vars) };
    // The user blocked the bot (my_chat_member or an earlier 403): every send would fail with 403, so none is queued.
    return { tr, locale, notify: chat?.notifications ?? { orders: true, broadcasts: true }, blocked: chat?.active === false, zone };
  }

  /**
   * Buttons of a finished record, card and notification alike (keyboards/final-card.ts): Track, a fulfilled
   * order's Rent again and reminder switch, a failed broadcast's Resend while its transaction may still go
   * (one the bot sent itself), and the receiver or transaction on the explorer.
   */
  async function finalKeyboard(tr: Translator, change: TrackerChange, endsAtMs: number | undefined, nowMs: number): Promise<InlineKeyboard> {
    if (change.kind === "order") {
      const live = change.record.status === "fulfilled" && endsAtMs !== undefined && endsAtMs > nowMs && deps.reminders !== undefined;
      const reminder = live ? await deps.reminders?.isScheduled(change.chatId, change.record.orderId) : undefined;
      return createFinishedOrderKeyboard(tr, links, change.record, reminder);
    }
    const resend = change.origin === "bot" && canResend(change.record.status, change.record.txExpirationMs, nowMs);
    return createFinishedBroadcastKeyboard(tr, links, change.record, resend);
  }

  const wants = (notify: NotificationSettings, kind: TrackKind): boolean => (kind === "order" ? notify.orders : notify.broadcasts);

  async function notFound(tr: Translator, event: TrackerGiveUp): Promise<void> {
    const minutes = Math.max(1, Math.round((now() - (event.notFoundSinceMs ?? now())) / 60_000));
    const keyboard = createTrackRefreshKeyboard(tr, event.kind, event.id);
    const external = serviceLinkButtons(tr, links, ["dashboard", "support"]);
    if (external.length > 0) keyboard.row(...external);
    await deps.push.enqueue({
      id: `trk-${event.chatId}-${event.kind}-${event.id}-notfound`,
      chatId: event.chatId,
      method: "sendMessage",
      params: {
        chat_id: event.chatId,
        text: translate(tr, "tracking-not-found", { kind: event.kind, id: code(event.id), minutes, command: code(`/track ${event.id}`) }),
        ...HTML,
        reply_markup: { inline_keyboard: keyboard.inline_keyboard },
      },
    });
  }

  /** A line naming the chat of the account that placed the item, told to the account's other chats. */
  async function placedIn(tr: Translator, change: TrackerChange, placingChat: number): Promise<string[]> {
    if (change.origin !== "bot") return [];
    const label = (await deps.chats.get(placingChat))?.title;
    return [translate(tr, "account-placed-in-chat", { chat: html(escapeHtml(label ?? String(placingChat))) })];
  }

  /**
   * Tells one chat of the change: the chat tracking the item (its card, its notices), or another chat linked to
   * the same account (`placingChat` is then the chat that placed it): that one hears what the first would hear
   * unasked, in its own language and under its own /settings. False when a batch card took the change.
   */
  async function tell(change: TrackerChange, placingChat?: number): Promise<boolean> {
    const { chatId } = change;
    const { tr, locale, notify, blocked, zone } = await chatView(chatId, placingChat === undefined ? change.locale : undefined);
    if (blocked) return true;
    if (placingChat === undefined && change.kind === "order" && (await deps.batches?.onOrderChange(change, { tr, locale, notify }))) return false;
    const id = change.kind === "order" ? change.record.orderId : change.record.broadcastId;
    const status = change.record.status;
    const jobId = (what: string) => `trk-${chatId}-${change.kind}-${id}-${status}-${what}`;
    const nowMs = now();
    const endsAtMs = change.kind === "order" && change.fulfilledAtMs !== undefined ? change.fulfilledAtMs + change.record.durationSec * 1000 : undefined;
    const timing: CardTiming = { nowMs, timeZone: zone.zone, ...(endsAtMs === undefined ? {} : { endsAtMs }) };
    const card = await withReceiverLabel(tr, recordCardText(tr, change, locale, change.local, timing), chatId, change, deps.addressBook);
    const endKeyboard = await finalKeyboard(tr, change, endsAtMs, nowMs);
    // Everything but the card is a message the chat did not ask for: /settings may turn it off.
    const notifies = wants(notify, change.kind);
    if (change.final && notifies) await finalNotice(change, { tr, locale, zone, nowMs, endsAtMs, endKeyboard, jobId }, placingChat);
    // The card is what the chat asked to see: it follows every status whatever the settings.
    if (change.cardMessageId !== undefined && change.cardStatus !== status) {
      const keyboard = change.final ? endKeyboard : createTrackRefreshKeyboard(tr, change.kind, id);
      await deps.push.enqueue({
        id: jobId("card"),
        chatId,
        method: "editMessageText",
        params: { chat_id: chatId, message_id: change.cardMessageId, text: card, ...HTML, reply_markup: { inline_keyboard: keyboard.inline_keyboard } },
        priority: "refresh",
      });
    }
    if (notifies && change.cardMessageId === undefined && change.origin === "hint" && change.previousStatus === undefined && !change.final) {
      // First sight of an item made elsewhere (dashboard, API): show it once.
      await deps.push.enqueue({
        id: jobId("seen"),
        chatId,
        method: "sendMessage",
        params: { chat_id: chatId, text: `${translate(tr, "tracking-seen")}\n${card}`, ...HTML },
        priority: "notice",
      });
    }
    return true;
  }

  /**
   * The one notice of a finished record. With the card in the chat it replies to the card and carries no
   * button of the card's (the card has them, edited to the end); without one it stands alone, with them.
   * The notice that first shows a clock time carries the zone offer while the chat has picked none: the
   * offer is about this notice's own times, and tapping it draws the notice again in the zone.
   */
  async function finalNotice(
    change: TrackerChange,
    view: {
      tr: Translator;
      locale: string;
      zone: ChatZone;
      nowMs: number;
      endsAtMs: number | undefined;
      endKeyboard: InlineKeyboard;
      jobId: (what: string) => string;
    },
    placingChat: number | undefined,
  ): Promise<void> {
    const { tr, locale, zone, nowMs, endsAtMs } = view;
    const { chatId, cardMessageId } = change;
    const id = change.kind === "order" ? change.record.orderId : change.record.broadcastId;
    const ends = endsAtMs === undefined ? [] : [delegationEndText(tr, endsAtMs, nowMs, locale, zone.zone)];
    const origin = placingChat === undefined ? [] : await placedIn(tr, change, placingChat);
    const offer =
      ends.length === 0
        ? []
        : zoneOfferRow(tr, locale, chatId, zone, nowMs, {
            on: "notice",
            orderId: id,
            placedElsewhere: origin.length > 0,
            ...(cardMessageId === undefined ? {} : { cardId: cardMessageId }),
          });
    const buttons = cardMessageId === undefined ? view.endKeyboard.inline_keyboard : [];
    const rows = offer.length === 0 ? buttons : [...buttons, offer];
    const params: Record<string, unknown> = {
      chat_id: chatId,
      text: [await withReceiverLabel(tr, finalText(tr, change, locale, nowMs), chatId, change, deps.addressBook), ...ends, ...origin].join("\n"),
      ...HTML,
      // A card deleted meanwhile still lets the notice through, as a message of its own.
      ...(cardMessageId === undefined ? {} : { reply_parameters: { message_id: cardMessageId, allow_sending_without_reply: true } }),
      ...(rows.length === 0 ? {} : { reply_markup: { inline_keyboard: rows } }),
    };
    await deps.push.enqueue({ id: view.jobId("final"), chatId, method: "sendMessage", params, priority: "notice" });
  }

  return {
    async onChange(change) {
      // A keep plan's renewal is shown on its plan's card, a digest edited in place (the plans follow
      // `tracking.changed` themselves): no card or notice of its own, in its chat or in the account's other
      // chats, or a 1-minute plan would post a message a minute. One tracking gives up on is `onGiveUp`'s.
      if (change.kind === "order" && change.renewalOf !== undefined) return;
      if (!(await tell(change))) return;
      // Account-wide: every other chat linked to the account hears it too (docs/accounts.md, "Who is told").
      for (const other of (await deps.accountChatsOf?.(change.chatId)) ?? []) {
        if (other === change.chatId) continue;
        const { cardMessageId: _card, cardStatus: _shown, ...rest } = change;
        await tell({ ...rest, chatId: other }, change.chatId);
      }
    },

    async onRecovered(outcome) {
      // Whatever the settings: the user confirmed this and is waiting for its outcome.
      const { tr, locale, blocked } = await chatView(outcome.chatId, outcome.locale);
      if (blocked) return;
      const id = outcome.kind === "order" ? outcome.quoteId : outcome.draftId;
      let text: string;
      let keyboard: InlineKeyboard | undefined;
      if (outcome.result === "expired_unknown") {
        text = translate(tr, "recovery-broadcast-expired-unknown", { txId: code(outcome.txId) });
      } else if (outcome.kind === "order") {
        text = translate(tr, "recovery-order-refused", { reason: html(serviceErrorText(tr, outcome.error, locale)) });
        // A 402 is the one refusal a top-up cures: Top up first, as on the live 402 card.
        const short = outcome.error.code === "wallet.insufficient_balance";
        if (outcome.retryable) keyboard = (short ? createTopUpRetryKeyboard : createRetryKeyboard)(tr, outcome.quoteId);
      } else {
        text = translate(tr, "recovery-broadcast-refused", { txId: code(outcome.txId), reason: html(serviceErrorText(tr, outcome.error, locale)) });
        const short = outcome.error.code === "wallet.insufficient_balance";
        if (outcome.retryable) keyboard = (short ? createBroadcastTopUpKeyboard : createBroadcastRetryKeyboard)(tr, outcome.draftId);
      }
      const markup = pushLinksMarkup(tr, deps.links, outcome.result === "expired_unknown" ? [] : errorTextKey(outcome.error), keyboard);
      if (outcome.kind === "broadcast" && outcome.cardMessageId !== undefined) {
        // The card said "checking, do not sign it again": it becomes the outcome itself.
        const txId = code(outcome.txId);
        const cardText =
          outcome.result === "expired_unknown"
            ? translate(tr, "broadcast-unknown-expired", { txId })
            : translate(tr, "broadcast-unknown-refused", { txId, reason: html(serviceErrorText(tr, outcome.error, locale)) });
        await deps.push.enqueue({
          id: `recovery-${outcome.chatId}-${outcome.kind}-${id}`,
          chatId: outcome.chatId,
          method: "editMessageText",
          params: { chat_id: outcome.chatId, message_id: outcome.cardMessageId, text: cardText, ...HTML, ...markup },
        });
        return;
      }
      // The answer the user is waiting for: a notice of its own, ahead of the chat's card refreshes.
      await deps.push.enqueue({
        id: `recovery-${outcome.chatId}-${outcome.kind}-${id}`,
        chatId: outcome.chatId,
        method: "sendMessage",
        params: { chat_id: outcome.chatId, text, ...HTML, ...markup },
        priority: "notice",
      });
    },

    async onGiveUp(event) {
      const { tr, locale, notify, blocked } = await chatView(event.chatId, event.locale);
      if (blocked) return;
      // A record the chat has (charged, or seen) that the service cannot find: told whatever the settings, since
      // only the user can settle it, with a Refresh that reads it again (and tracks it when it answers).
      if (event.reason === "not_found") return notFound(tr, event);
      if (event.kind === "order" && (await deps.batches?.onGiveUp(event, { tr, locale, notify }))) return;
      // With notifications off the chat hears nothing unasked; a card keeps its Refresh button and /track still works.
      if (!wants(notify, event.kind)) return;
      await deps.push.enqueue({
        id: `trk-${event.chatId}-${event.kind}-${event.id}-giveup`,
        chatId: event.chatId,
        method: "sendMessage",
        params: {
          chat_id: event.chatId,
          text: translate(tr, "tracking-gave-up", {
            kind: event.kind,
            id: code(event.id),
            status: event.lastStatus ?? "-",
            command: code(`/track ${event.id}`),
          }),
          ...HTML,
        },
      });
    },
  };
}
