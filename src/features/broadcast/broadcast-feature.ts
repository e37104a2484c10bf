import { Composer } from "grammy";
import { looksLikeSignedTransaction } from "../../shared/broadcasts/precheck.js";
import type { SubmitResult } from "../../shared/broadcasts/submit-broadcast.js";
import { isBroadcastFinished, type Broadcast } from "../../platform/service/schemas.js";
import { draftData } from "../../bot/callback-data/broadcast.js";
import { menuAction, menuData } from "../../bot/callback-data/menu.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { linkedForButton, linkedOnly, type LinkedContext } from "../../bot/filters/linked.js";
import { checkBroadcast } from "../../shared/broadcasts/check-broadcast.js";
import { replyWithCheck } from "./broadcast-conversation.js";
import { BROADCAST_CONVERSATION } from "../../bot/conversations/flow-ids.js";
import type { BotDeps } from "../../bot/deps.js";
import { deletedAsSecret } from "../../bot/conversations/steps.js";
import { bestEffort, firstCardSignal } from "../../bot/helpers/best-effort.js";
import { isJsonDocument, readDocument } from "../../bot/helpers/document.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { errorTextKey, serviceErrorText } from "../../bot/helpers/error-text.js";
import { code, html, HTML, translate } from "../../bot/helpers/html.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { broadcastCardText, statusText } from "../../bot/helpers/record-text.js";
import { ServiceError } from "../../platform/service/errors.js";
import { topUpAdvice } from "../../shared/orders/top-up-advice.js";
import { createBroadcastRetryKeyboard, createBroadcastTopUpKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { createDraftConfirmAgainKeyboard, createLimitsFixKeyboard } from "../../bot/keyboards/limits-refusal-keyboards.js";
import { limitRefusalText } from "../../bot/helpers/refusal-texts.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { topUpAdviceText } from "../../bot/helpers/refusal-texts.js";
import { txIdCommandArgument } from "../../bot/helpers/tx-id-command.js";
import { createTrackRefreshKeyboard } from "../../bot/keyboards/track-keyboards.js";

/** Commands of the flows whose argument is checked for a wallet secret; others (/link, /webhook secret) take secrets on purpose. */
const SECRET_CHECKED_COMMANDS: ReadonlySet<string> = new Set(["broadcast", "order", "batch", "track", "orders"]);

/** c confirm, x cancel, r retry (broadcast-keyboards.ts). */
const DRAFT_ACTIONS: ReadonlySet<string> = new Set(["c", "x", "r", "a"]);

/** The text after one of those commands, or undefined for any other command or none. */
function commandArgument(text: string): string | undefined {
  const m = /^\/([A-Za-z0-9_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(text);
  if (!m || !SECRET_CHECKED_COMMANDS.has(m[1]!.toLowerCase())) return undefined;
  return m[2]?.trim() || undefined;
}

/**
 * /broadcast (guided, or one-shot with the JSON after the command), a .json
 * document sent outside a flow, the summary buttons, and the guard that
 * deletes anything that looks like a private key or recovery phrase.
 */
export function createBroadcastFeature(deps: BotDeps): BotFeature {
  const { flows } = deps;
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  async function checkAndReply(ctx: LinkedContext, text: string): Promise<void> {
    const outcome = await checkBroadcast({ ...deps, ...flows }, ctx.account.chatId, ctx.account, text);
    const messageId = await replyWithCheck(ctx, outcome, await ctx.i18n.getLocale());
    const { result } = outcome;
    if (result.ok && messageId !== undefined) await flows.drafts.update(result.draft.draftId, (d) => ({ ...d, messageId }));
  }

  // Outside any flow: a pasted private key or mnemonic is removed at once, as text, caption or edit,
  // also when written after one of this feature's commands (`/broadcast <key>`), except a lone
  // transaction id after /track.
  feature.on(["message:text", "message:caption", "edited_message:text", "edited_message:caption"], async (ctx, next) => {
    const text = ctx.msg.text ?? ctx.msg.caption ?? "";
    // `/track <txId>` asked for a transaction id: the track feature answers it.
    const checked = text.startsWith("/") ? (txIdCommandArgument(text) === undefined ? commandArgument(text) : undefined) : text;
    if (checked === undefined || !(await deletedAsSecret(ctx, checked))) return next();
    ctx.logger.warn("deleted a message that looked like a wallet secret");
  });

  feature.command(
    "broadcast",
    logHandle("command-broadcast"),
    linkedOnly(async (ctx) => {
      const json = ctx.match.trim();
      if (json) return checkAndReply(ctx, json);
      await ctx.enterFlow(BROADCAST_CONVERSATION);
    }),
  );

  feature.callbackQuery(
    menuAction("broadcast"),
    logHandle("callback-menu-broadcast"),
    linkedOnly(async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.enterFlow(BROADCAST_CONVERSATION);
    }),
  );

  // A signed transaction pasted as text outside /broadcast is taken like a .json document.
  feature
    .on("message:text")
    .filter((ctx) => looksLikeSignedTransaction(ctx.message.text))
    .use(
      logHandle("text-broadcast"),
      linkedOnly((ctx) => checkAndReply(ctx, ctx.message.text)),
    );

  feature
    .on("message:document")
    .filter((ctx) => isJsonDocument(ctx.message.document))
    .use(
      logHandle("document-broadcast"),
      linkedOnly(async (ctx) => {
        const read = await readDocument(ctx.api, ctx.message.document, ctx.logger);
        if (!read.ok) {
          await ctx.reply(translate(ctx, read.reason === "too_large" ? "broadcast-refused-too-large" : "order-document-unreadable"), HTML);
          return;
        }
        await checkAndReply(ctx, read.text);
      }),
    );

  /** The summary becomes the broadcast's card; the tracker learns whether it did. */
  async function showSubmitted(ctx: BotContext, result: Extract<SubmitResult, { status: "submitted" }>, locale: string): Promise<void> {
    const chatId = ctx.chat!.id;
    const apiKey = (await ctx.linked())?.apiKey;
    let record: Broadcast | undefined;
    try {
      if (apiKey !== undefined) record = await deps.service.getBroadcast(apiKey, result.broadcastId);
    } catch (error) {
      ctx.logger.debug({ err: error }, "first read of a new broadcast failed; the tracker reads it later");
    }
    const status = record?.status ?? result.initialStatus;
    const text = record
      ? broadcastCardText(ctx, record, locale, await flows.history.get(chatId, "broadcast", result.broadcastId))
      : translate(ctx, "broadcast-accepted", { broadcastId: code(result.broadcastId), status: statusText(ctx, result.initialStatus) });
    const refresh = record && isBroadcastFinished(record.status) ? {} : { reply_markup: createTrackRefreshKeyboard(ctx, "broadcast", result.broadcastId) };
    const drawn = await bestEffort(ctx, "editMessageText", () => ctx.editMessageText(text, { ...HTML, ...refresh }, firstCardSignal()));
    const item = { chatId, kind: "broadcast" as const, id: result.broadcastId };
    const cardMessageId = ctx.callbackQuery?.message?.message_id;
    if (drawn) await flows.tracker.cardShown({ ...item, status, ...(cardMessageId === undefined ? {} : { cardMessageId }) });
    else await flows.tracker.cardNotShown(item);
  }

  /**
   * A 402 with a readable balance and a deposit address: how much to send
   * (never under the minimum deposit), Top up first, and a watch that says
   * "credited, tap Retry". False leaves the generic refusal to the caller.
   */
  async function replyInsufficient(ctx: BotContext, result: Extract<SubmitResult, { status: "failed" }>, apiKey: string, locale: string): Promise<boolean> {
    const { error, draft } = result;
    if (error.requiredSun === undefined) return false;
    let balance;
    try {
      balance = await deps.service.getBalance(apiKey);
    } catch (balanceError) {
      if (!ServiceError.isInstance(balanceError)) throw balanceError;
      ctx.logger.debug({ err: balanceError }, "balance unavailable after a broadcast 402");
      return false;
    }
    const advice = topUpAdvice(BigInt(error.requiredSun), BigInt(balance.availableSun));
    if (advice.covered || balance.depositAddress === null) return false;
    const text = [
      serviceErrorText(ctx, error, locale),
      `${topUpAdviceText(ctx, advice, balance.depositAddress, locale)}\n${translate(ctx, "topup-watching")}`,
    ].join("\n\n");
    await ctx.reply(text, { ...HTML, reply_markup: createBroadcastTopUpKeyboard(ctx, draft.draftId) });
    await deps.topUps?.watch({
      kind: "broadcast",
      refId: draft.draftId,
      chatId: draft.chatId,
      requiredSun: BigInt(error.requiredSun),
      origin: "refused",
      untilMs: draft.summary.expirationMs,
      locale,
    });
    return true;
  }

  /**
   * The card said "checking" and the checks ended: still unknown (the journal goes on and the
   * tracker or the resolution redraws this card), or a definite refusal, told on the same card.
   */
  async function showUnresolved(ctx: BotContext, result: Extract<SubmitResult, { status: "failed" }>, locale: string): Promise<void> {
    const txId = code(result.draft.summary.txId);
    if (result.draft.state === "unknown") {
      await bestEffort(ctx, "editMessageText", () =>
        editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "broadcast-unknown-pending", { txId }), HTML)),
      );
      return;
    }
    const text = translate(ctx, "broadcast-unknown-refused", { txId, reason: html(serviceErrorText(ctx, result.error, locale)) });
    const keyboard = result.retryable ? createBroadcastRetryKeyboard(ctx, result.draft.draftId) : undefined;
    await bestEffort(ctx, "editMessageText", () =>
      editIgnoringUnchanged(() => ctx.editMessageText(text, { ...HTML, ...textLinksMarkup(ctx, errorTextKey(result.error), keyboard) })),
    );
  }

  feature.callbackQuery(draftData.filter, logHandle("callback-broadcast-draft"), async (ctx) => {
    const data = draftData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const draft = data ? await flows.drafts.get(data.draftId) : undefined;
    // Only the actions our buttons carry: forged data with any other action is not a Confirm.
    if (!data || !DRAFT_ACTIONS.has(data.action) || !draft || draft.chatId !== chatId) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    if (draft.state === "cancelled") {
      // Cancelled by its own button or by /cancel, which already redrew the message (this client may not show it yet).
      await ctx.answerCallbackQuery({ text: ctx.t("flow-offer-cancelled") });
      return;
    }
    const locale = await ctx.i18n.getLocale();
    if (data.action === "x") {
      const cancelled = await flows.submitter.cancel(chatId, draft.draftId);
      await ctx.answerCallbackQuery(cancelled?.state === "cancelled" ? {} : { text: ctx.t("broadcast-already-submitted") });
      if (cancelled?.state === "cancelled") {
        await deps.topUps?.unwatch("broadcast", draft.draftId);
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "broadcast-cancelled"), HTML));
      }
      return;
    }
    const account = await linkedForButton(ctx, draft);
    if (account === undefined) return;
    const { apiKey } = account;
    const cardMessageId = ctx.callbackQuery.message?.message_id;
    // A Retry of a draft already sent once was allowed by the threshold's second tap (if any) then.
    const confirmedAgain = data.action === "a" || (data.action === "r" && draft.lastErrorCode !== undefined);
    const txId = code(draft.summary.txId);
    // A lost answer is never a refusal: the card says so at once (no buttons: nothing to sign or tap again)
    // while the same transaction is sent again until the service's answer tells what happened.
    let checking = false;
    const onUnknown = async (): Promise<void> => {
      checking = true;
      await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
      await bestEffort(ctx, "editMessageText", () =>
        editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "broadcast-unknown-checking", { txId }), HTML)),
      );
    };
    const answered = (text?: string) =>
      checking ? Promise.resolve(true) : bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery(text === undefined ? {} : { text }));
    const result = await flows.submitter.submit({
      chatId,
      draftId: draft.draftId,
      apiKey,
      locale,
      drawsCard: true,
      confirmedAgain,
      onUnknown,
      ...(cardMessageId === undefined ? {} : { cardMessageId }),
    });
    switch (result.status) {
      // From here on every Telegram call is best effort: what was accepted is recorded and tracked.
      case "submitted":
        if (result.alreadySubmitted) {
          await answered(ctx.t("broadcast-already-submitted"));
          return;
        }
        await answered();
        await showSubmitted(ctx, result, locale);
        return;
      case "duplicate":
        if (checking) {
          // Our lost attempt was accepted, but the service did not name it: its updates come by webhook.
          await bestEffort(ctx, "editMessageText", () =>
            editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "broadcast-unknown-accepted-unnamed", { txId }), HTML)),
          );
          return;
        }
        await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
        await bestEffort(ctx, "editMessageReplyMarkup", () => ctx.editMessageReplyMarkup());
        await ctx.reply(
          result.existing
            ? translate(ctx, "broadcast-duplicate-known", {
                broadcastId: code(result.existing.id),
                status: statusText(ctx, result.existing.status),
                txId: code(result.draft.summary.txId),
              })
            : translate(ctx, "broadcast-duplicate-unknown", { txId: code(result.draft.summary.txId) }),
          HTML,
        );
        return;
      case "expired":
        await ctx.answerCallbackQuery();
        await editIgnoringUnchanged(() => ctx.editMessageText(translate(ctx, "broadcast-refused-expired"), HTML));
        return;
      case "needs_second_tap":
        await ctx.answerCallbackQuery({ text: ctx.t("limits-confirm-again-note") });
        await editIgnoringUnchanged(() =>
          ctx.editMessageReplyMarkup({ reply_markup: createDraftConfirmAgainKeyboard(ctx, draft.draftId, formatTrx(result.feeSun, locale)) }),
        );
        return;
      case "over_limit":
        // Nothing was sent: the summary keeps its buttons, so a Confirm after raising the cap still works.
        await ctx.answerCallbackQuery();
        await ctx.reply(limitRefusalText(ctx, result.refusal, result.feeSun, locale), {
          ...HTML,
          reply_markup: createLimitsFixKeyboard(ctx, result.refusal),
        });
        return;
      case "failed": {
        if (checking) return showUnresolved(ctx, result, locale);
        await bestEffort(ctx, "answerCallbackQuery", () => ctx.answerCallbackQuery());
        await bestEffort(ctx, "editMessageReplyMarkup", () => ctx.editMessageReplyMarkup());
        if (result.error.code === "wallet.insufficient_balance" && (await replyInsufficient(ctx, result, apiKey, locale))) return;
        const text = serviceErrorText(ctx, result.error, locale);
        await ctx.reply(text, {
          ...HTML,
          ...textLinksMarkup(ctx, errorTextKey(result.error), result.retryable ? createBroadcastRetryKeyboard(ctx, draft.draftId) : undefined),
        });
        return;
      }
      default:
        await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    }
  });

  return { composer, routes: { messages: true, callbacks: [menuData, draftData] } };
}
