import type { BatchParse } from "../../shared/orders/batch-parse.js";
import { labelIndex, parseBatch, refuseContractLines } from "../../shared/orders/batch-parse.js";
import { checkAmount } from "../../shared/orders/order-input.js";
import type { QuoteRequestItem } from "../../shared/orders/quote.js";
import type { Pricing } from "../../platform/service/schemas.js";
import type { ConversationContext } from "../../bot/context.js";
import { readDocument } from "../../bot/helpers/document.js";
import { cappedLines, echo } from "../../bot/helpers/echo.js";
import { beginFlowInstance } from "../../bot/helpers/flow-instance.js";
import { formatInteger } from "../../bot/helpers/format.js";
import { code, html, HTML, translate } from "../../bot/helpers/html.js";
import { ambiguousAmountText } from "../../bot/helpers/amount-text.js";
import { durationText } from "../../bot/helpers/record-text.js";
import { isShortQuote, prepareQuote, type PreparedQuote, type PrepareResult } from "../../shared/orders/prepare-quote.js";
import { watchShortQuote } from "./short-quote-watch.js";
import { BATCH_LINES_SHOWN, quoteText } from "./order-quote-texts.js";
import { batchQuoteCsv } from "./order-batch-texts.js";
import { InlineKeyboard, InputFile } from "grammy";
import { connectData } from "../../bot/callback-data/connect.js";
import { createBlockedQuoteKeyboard, createShortQuoteKeyboard } from "./order-keyboards.js";
import { createCancelOnlyKeyboard } from "../../bot/keyboards/step-keyboards.js";
import { createQuoteKeyboard } from "../../bot/keyboards/retry-keyboards.js";
import { knownContractsOf, quoteDepsOf } from "../../bot/helpers/quote-deps.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import type { BotDeps } from "../../bot/deps.js";
import { sendBeforeStepPrompt, sendStepPrompt, closeStepPrompt } from "../../bot/helpers/step-prompt.js";
import { askAmount, askDuration, askReceiver, waitStep, type FlowConversation } from "../../bot/conversations/steps.js";
import type { OrderConversationArgs } from "../../bot/conversations/flow-ids.js";

/** At most this many line errors are listed in one message, and only as many as fit well under Telegram's 4,096 characters. */
const ERRORS_SHOWN = 20;
const ERRORS_BUDGET = 3_500;

export function batchErrorsText(tr: ConversationContext | Pick<ConversationContext, "t">, parsed: BatchParse, locale: string): string {
  if (parsed.fatal?.reason === "empty") return translate(tr, "order-batch-empty");
  if (parsed.fatal?.reason === "too_many_items") return translate(tr, "order-batch-too-many", { count: parsed.fatal.count, max: parsed.fatal.max });
  const lines = parsed.errors.map((e) => {
    const vars: Record<string, string | number> = { line: e.line, value: "value" in e ? echo(e.value) : "" };
    if (e.reason === "amount_out_of_range") Object.assign(vars, { min: formatInteger(e.min, locale), max: formatInteger(e.max, locale) });
    const reason =
      e.reason === "bad_amount" && e.readings
        ? ambiguousAmountText(tr, e.value, e.readings, locale, "input-amount-ambiguous-reason")
        : translate(tr, `order-batch-reason-${e.reason.replace(/_/g, "-")}`, vars);
    return translate(tr, "order-batch-error-line", { line: e.line, reason: html(reason) });
  });
  const more = (count: number) => translate(tr, "order-batch-errors-more", { count });
  return [
    translate(tr, "order-batch-errors", { count: parsed.errors.length }),
    ...cappedLines(lines, { budget: ERRORS_BUDGET, maxLines: ERRORS_SHOWN, more }),
  ].join("\n");
}

type BatchSource = { kind: "text"; text: string } | { kind: "document"; fileId: string; fileSize: number | undefined };

/** Batch: read lines or a .csv, report every bad line, ask once for a missing duration. */
async function collectBatch(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: BotDeps,
  flow: string,
  pricing: Pricing,
  locale: string,
  first: BatchSource | undefined,
): Promise<QuoteRequestItem[]> {
  let source = first;
  const prompt = source
    ? undefined
    : await sendStepPrompt(conversation, ctx, translate(ctx, "order-batch-ask"), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) });
  for (;;) {
    if (!source) {
      const input = await waitStep(conversation, flow, "batch");
      if (input.kind === "text") source = { kind: "text", text: input.text };
      else if (input.kind === "document") source = { kind: "document", fileId: input.fileId, fileSize: input.fileSize };
      else continue;
    }
    let text: string;
    if (source.kind === "document") {
      const { fileId, fileSize } = source;
      // The outside context's api: a Bot API call through the conversation's own ctx inside `external` never settles (the chat locks).
      const read = await conversation.external((outside) =>
        readDocument(outside.api, { file_id: fileId, ...(fileSize === undefined ? {} : { file_size: fileSize }) }, outside.logger),
      );
      if (!read.ok) {
        await ctx.reply(translate(ctx, read.reason === "too_large" ? "order-document-too-large" : "order-document-unreadable"), HTML);
        source = undefined;
        continue;
      }
      text = read.text;
    } else text = source.text;
    const chatId = ctx.chat?.id;
    const labels = chatId === undefined ? undefined : labelIndex(await conversation.external(() => deps.flows.addressBook.list(chatId)));
    const parsed = refuseContractLines(
      parseBatch(text, pricing, { csv: source.kind === "document", locale, ...(labels ? { labels } : {}) }),
      knownContractsOf(deps.flows),
    );
    source = undefined;
    if (parsed.fatal || parsed.errors.length > 0) {
      await ctx.reply(batchErrorsText(ctx, parsed, locale), HTML);
      continue;
    }
    if (prompt !== undefined) await closeStepPrompt(conversation, ctx, deps, prompt);
    const missing = parsed.items.filter((i) => i.durationSec === undefined).length;
    const durationSec = missing > 0 ? await askDuration(conversation, ctx, deps, flow, pricing, "order-batch-ask-duration", { count: missing }) : undefined;
    return parsed.items.map((i) => ({ toAddress: i.toAddress, amount: i.amount, durationSec: i.durationSec ?? durationSec! }));
  }
}

/** A quote that could not be prepared, said as one message. */
export function prepareRefusalText(tr: Pick<ConversationContext, "t">, result: Extract<PrepareResult, { ok: false }>): string {
  if (result.reason === "contract_receiver") return translate(tr, "order-receiver-contract", { address: code(result.address) });
  return translate(tr, `order-prepare-${result.reason.replace(/_/g, "-")}`);
}

/**
 * The quote's text and buttons: Confirm (or, short of money, Top up) first and Cancel last; a quote
 * that cannot be confirmed as it stands carries what resolves it instead of Confirm.
 */
export function quoteMessage(ctx: Pick<ConversationContext, "t" | "links">, prepared: PreparedQuote, locale: string) {
  const { quoteId } = prepared.quote;
  const keyboard = prepared.blocked
    ? createBlockedQuoteKeyboard(ctx, quoteId, prepared.blocked)
    : isShortQuote(prepared)
      ? createShortQuoteKeyboard(ctx, quoteId)
      : createQuoteKeyboard(ctx, quoteId);
  const links = prepared.noWallet ? textLinksMarkup(ctx, "order-quote-no-wallet", keyboard) : { reply_markup: keyboard };
  return { text: quoteText(ctx, prepared, locale), other: { ...HTML, ...links } };
}

/** Sends the quote (quoteMessage); a quote that could not be made is said instead. */
export async function replyWithQuote(
  ctx: Pick<ConversationContext, "t" | "reply" | "replyWithDocument" | "links">,
  result: PrepareResult,
  locale: string,
): Promise<number | undefined> {
  if (!result.ok) {
    // Unlinked meanwhile: the button that resolves it is Connect.
    const connect =
      result.reason === "not_linked" ? { reply_markup: new InlineKeyboard().text(ctx.t("account-connect-button"), connectData.pack({ then: "link" })) } : {};
    await ctx.reply(prepareRefusalText(ctx, result), { ...HTML, ...connect });
    return undefined;
  }
  const { quoteId, items } = result.prepared.quote;
  // The message lists the first lines only (a message holds 4096 characters): the whole quote goes as a file, above its buttons.
  if (items.length > BATCH_LINES_SHOWN) {
    await ctx.replyWithDocument(new InputFile(Buffer.from(batchQuoteCsv(items), "utf8"), `quote-${quoteId}.csv`), {
      caption: translate(ctx, "batch-quote-document"),
      ...HTML,
    });
  }
  const { text, other } = quoteMessage(ctx, result.prepared, locale);
  const message = await ctx.reply(text, other);
  return message.message_id;
}

/**
 * Guided /order: receiver, amount, duration, then the quote. Several lines or
 * a .csv at the receiver step make it a batch. Confirming the quote is
 * handled outside the flow (quote buttons), so quotes survive everything.
 */
export function createOrderConversation(deps: BotDeps) {
  return async function order(conversation: FlowConversation, ctx: ConversationContext, args: OrderConversationArgs = {}): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const flow = await beginFlowInstance(conversation, deps.store, chatId);
    const loaded = await conversation.external(async () => {
      try {
        return { ok: true as const, pricing: await deps.pricing.get() };
      } catch (error) {
        deps.logger.warn({ err: error }, "pricing unavailable for an order flow");
        return { ok: false as const };
      }
    });
    if (!loaded.ok) {
      await ctx.reply(translate(ctx, "order-prepare-pricing-unavailable"), HTML);
      return;
    }
    const pricing = loaded.pricing;
    const locale = await ctx.i18n.getLocale();
    let items: QuoteRequestItem[];
    if (args.document) {
      items = await collectBatch(conversation, ctx, deps, flow, pricing, locale, {
        kind: "document",
        fileId: args.document.fileId,
        fileSize: args.document.fileSize,
      });
    } else if (args.batch) {
      items = await collectBatch(conversation, ctx, deps, flow, pricing, locale, args.lines ? { kind: "text", text: args.lines } : undefined);
    } else {
      const prefill = args.prefill ?? {};
      // A deep link from an inline quote carries amount and duration: say so, or the question about the receiver comes out of nowhere.
      const presetAmount = prefill.amount === undefined ? undefined : checkAmount(String(prefill.amount), pricing);
      const presetTier = pricing.tiers.some((t) => t.durationSec === prefill.durationSec) ? prefill.durationSec : undefined;
      // A link part that cannot be used is said, never dropped in silence: above the receiver's question when it is
      // asked (one message), else before the step that asks for that part.
      const notes: string[] = [];
      if (presetAmount !== undefined && !presetAmount.ok) {
        const range = { min: formatInteger(pricing.amountMin, locale), max: formatInteger(pricing.amountMax, locale) };
        notes.push(translate(ctx, "order-preset-amount-dropped", { amount: formatInteger(prefill.amount!, locale), ...range }));
      }
      if (prefill.durationSec !== undefined && presetTier === undefined) notes.push(translate(ctx, "order-preset-duration-dropped"));
      if (prefill.address === undefined && presetAmount?.ok && presetTier !== undefined) {
        notes.push(translate(ctx, "order-preset", { amount: formatInteger(presetAmount.amount, locale), duration: durationText(ctx, presetTier) }));
      }
      if (prefill.address !== undefined) for (const note of notes) await sendBeforeStepPrompt(conversation, ctx, note, HTML);
      const receiver =
        prefill.address !== undefined
          ? { kind: "address" as const, address: prefill.address }
          : await askReceiver(conversation, ctx, deps, flow, chatId, notes.length === 0 ? undefined : notes.join("\n"));
      if (receiver.kind === "batch") {
        items = await collectBatch(conversation, ctx, deps, flow, pricing, locale, { kind: "text", text: receiver.text });
      } else if (receiver.kind === "document") {
        items = await collectBatch(conversation, ctx, deps, flow, pricing, locale, { kind: "document", fileId: receiver.fileId, fileSize: receiver.fileSize });
      } else {
        // A deep link is user-editable: its amount is checked against the live range like a typed one.
        const linked = prefill.amount === undefined ? undefined : checkAmount(String(prefill.amount), pricing);
        const amount = linked?.ok ? linked.amount : await askAmount(conversation, ctx, deps, flow, pricing, locale);
        const known = pricing.tiers.some((t) => t.durationSec === prefill.durationSec);
        const durationSec = known && prefill.durationSec !== undefined ? prefill.durationSec : await askDuration(conversation, ctx, deps, flow, pricing);
        items = [{ toAddress: receiver.address, amount, durationSec }];
      }
    }
    const prepared = await conversation.external(async () => prepareQuote(quoteDepsOf(deps), await deps.chats.open(chatId), items));
    const messageId = await replyWithQuote(ctx, prepared, locale);
    if (prepared.ok && messageId !== undefined) {
      const quoteId = prepared.prepared.quote.quoteId;
      await conversation.external(() => deps.flows.quotes.update(quoteId, (q) => ({ ...q, messageId })));
      const shown = prepared.prepared;
      await conversation.external(() => watchShortQuote(deps.topUps, shown, locale));
    }
  };
}
