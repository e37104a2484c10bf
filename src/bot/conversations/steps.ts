import type { Conversation } from "@grammyjs/conversations";
import { detectSecret } from "../../shared/broadcasts/secret-detect.js";
import { isValidTronAddress } from "../../shared/tron/index.js";
import type { AddressBookEntry } from "../../shared/address-book.js";
import { normalizeLabel } from "../../shared/address-book.js";
import { checkAmount, resolveTier } from "../../shared/orders/order-input.js";
import type { Pricing } from "../../platform/service/schemas.js";
import { orderStepData } from "../callback-data/order.js";
import { cancelData } from "../callback-data/cancel.js";
import { InlineKeyboard } from "grammy";
import type { BotContext, ConversationContext } from "../context.js";
import { ambiguousAmountText } from "../helpers/amount-text.js";
import { isCsvDocument } from "../helpers/document.js";
import { isNotModified } from "../helpers/edit.js";
import { formatInteger } from "../helpers/format.js";
import { addressBookRefusalText } from "../helpers/refusal-texts.js";
import { code, HTML, translate } from "../helpers/html.js";
import { closeStepPrompt, sendStepPrompt, type AnsweredPrompt } from "../helpers/step-prompt.js";
import { tierLabel } from "../helpers/tiers.js";
import { createCancelOnlyKeyboard, createDurationKeyboard, createReceiverKeyboard, RECENT_RECEIVERS_SHOWN } from "../keyboards/step-keyboards.js";
import type { BotDeps } from "../deps.js";
import { knownContractsOf } from "../helpers/quote-deps.js";

export type FlowConversation = Conversation<BotContext, ConversationContext>;

/** What a wait of a step produced, after the generic cases were dealt with. */
export type StepInput =
  | { kind: "text"; text: string; ctx: ConversationContext }
  | { kind: "button"; action: string; value: string; ctx: ConversationContext }
  | { kind: "document"; ctx: ConversationContext; fileId: string; fileSize: number | undefined; csv: boolean };

/** What a step waits for: named in the reminder a wrong kind of input gets; the last three also take a document. */
export type WaitingFor = "amount" | "duration" | "receiver" | "batch" | "broadcast" | "options";

const TAKES_DOCUMENTS: ReadonlySet<WaitingFor> = new Set(["receiver", "batch", "broadcast"]);

/** What a person sends as an answer, right or wrong: these get a reply naming what the step waits for. */
const INPUT_FIELDS = [
  "text",
  "caption",
  "photo",
  "sticker",
  "voice",
  "video",
  "video_note",
  "audio",
  "animation",
  "document",
  "location",
  "venue",
  "contact",
  "poll",
  "dice",
] as const;

/**
 * What Telegram puts in a chat that is nobody's answer to a question: service messages (a gift, a
 * giveaway created or won, tasks of a checklist done), and shared things no step asks for (a story,
 * paid media, a checklist, a giveaway), even with a caption.
 */
const NEVER_INPUT_FIELDS = [
  "gift",
  "unique_gift",
  "giveaway",
  "giveaway_created",
  "giveaway_winners",
  "giveaway_completed",
  "checklist",
  "checklist_tasks_done",
  "checklist_tasks_added",
  "paid_media",
  "story",
] as const;

/** A message a person sent as input (a wrong kind of input included); false for service messages and shapes no step takes. */
export function isInputMessage(message: object): boolean {
  const has = (field: string) => (message as Record<string, unknown>)[field] !== undefined;
  return !NEVER_INPUT_FIELDS.some(has) && INPUT_FIELDS.some(has);
}

/**
 * Waits for the next input that belongs to this step. Another command leaves
 * the flow and runs as usual; a button of another feature (a quote, a page)
 * is passed on; a step button of an earlier flow answers "expired" and loses
 * its buttons; a message that looks like a wallet secret is deleted with a
 * warning; anything else the step cannot take (a photo, a sticker, a voice
 * message, a location, an edit of a message sent within this step, a document
 * where text is expected) is answered with what the step waits for, so the
 * flow never goes silent. Service messages (gifts, giveaways, checklists,
 * paid media, stories: see NEVER_INPUT_FIELDS) and edits of messages sent
 * before the step began are nobody's answer: the step keeps waiting without a word.
 */
export async function waitStep(conversation: FlowConversation, flow: string, what: WaitingFor): Promise<StepInput> {
  // Messages of this step (replayed with the conversation, so the same after a restart).
  const sentInStep = new Set<number>();
  for (;;) {
    const next = await conversation.wait();
    if (next.message !== undefined) {
      if (!isInputMessage(next.message)) continue;
      sentInStep.add(next.message.message_id);
    }
    if (next.editedMessage !== undefined && !sentInStep.has(next.editedMessage.message_id)) continue;
    const caption = next.message?.caption;
    if (caption !== undefined && (await deletedAsSecret(next, caption))) continue;
    const text = next.message?.text;
    if (text?.startsWith("/")) await conversation.halt({ next: true });
    const data = next.callbackQuery?.data;
    if (data !== undefined) {
      const step = orderStepData.unpack(data);
      if (!step) await conversation.skip({ next: true });
      if (step && step.flow === flow) {
        await next.answerCallbackQuery();
        return { kind: "button", action: step.action, value: step.value, ctx: next };
      }
      await next.answerCallbackQuery({ text: next.t("button-expired") });
      const pressed = next.callbackQuery?.message;
      if (pressed?.reply_markup) await stripButtons(next, [pressed.message_id]);
      continue;
    }
    if (text !== undefined) {
      if (await deletedAsSecret(next, text)) continue;
      return { kind: "text", text, ctx: next };
    }
    const doc = next.message?.document;
    if (doc && TAKES_DOCUMENTS.has(what)) return { kind: "document", ctx: next, fileId: doc.file_id, fileSize: doc.file_size, csv: isCsvDocument(doc) };
    // Edits carrying a secret were deleted before the conversations (middlewares/flow-guard.ts).
    if (next.message !== undefined || next.editedMessage !== undefined) await next.reply(translate(next, "flow-waiting", { what }), HTML);
  }
}

/**
 * Takes the buttons off prompts whose step is answered, so an old Cancel or
 * tier button cannot be pressed after the flow moved on. Each id must carry
 * buttons (an edit that changes nothing is refused by Telegram).
 */
export async function stripButtons(ctx: Pick<ConversationContext, "chat" | "api" | "logger">, messageIds: readonly number[]): Promise<void> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  for (const messageId of messageIds) {
    try {
      await ctx.api.editMessageReplyMarkup(chatId, messageId);
    } catch (error) {
      // Deleted by the user, too old to edit: nothing left to press either way.
      if (!isNotModified(error)) ctx.logger.debug({ err: error, messageId }, "could not remove the buttons of an earlier prompt");
    }
  }
}

/**
 * A message of a step that carries buttons: its prompt (the reference
 * `sendStepPrompt` gave, sent once the step was stored) or a reminder sent
 * within the step (its message id).
 */
export type ShownMessage = string | number;

/** Takes the buttons off every message a step showed, prompt and reminders alike. */
export async function closeShown(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: Pick<BotDeps, "store">,
  shown: readonly ShownMessage[],
  answered?: AnsweredPrompt,
): Promise<void> {
  for (const message of shown) {
    if (typeof message === "string") await closeStepPrompt(conversation, ctx, deps, message, answered);
    else await stripButtons(ctx, [message]);
  }
}

/** Deletes a message that looks like a private key or mnemonic, and warns. True when it did. */
export async function deletedAsSecret(ctx: Pick<ConversationContext, "t" | "reply" | "deleteMessage" | "logger">, text: string): Promise<boolean> {
  const kind = detectSecret(text);
  if (!kind) return false;
  // The warning still goes out: the user must know the secret may be visible and should be moved.
  await ctx.deleteMessage().catch((error: unknown) => ctx.logger.warn({ err: error, kind }, "could not delete a message that looked like a wallet secret"));
  await ctx.reply(translate(ctx, "broadcast-secret-deleted", { kind }), HTML);
  return true;
}

export type ReceiverAnswer =
  | { kind: "address"; address: string }
  | { kind: "batch"; text: string }
  | { kind: "document"; fileId: string; fileSize: number | undefined; ctx: ConversationContext };

/** The buttons shorten addresses, so the prompt names each offered receiver in full. */
function receiverPrompt(ctx: ConversationContext, recent: readonly AddressBookEntry[]): string {
  const shown = recent.slice(0, RECENT_RECEIVERS_SHOWN);
  if (shown.length === 0) return translate(ctx, "order-ask-receiver", { recent: "no" });
  const lines = shown.map((e) =>
    e.label === undefined
      ? translate(ctx, "order-recent-line", { address: code(e.address) })
      : translate(ctx, "order-recent-line-labelled", { address: code(e.address), label: e.label }),
  );
  return [translate(ctx, "order-ask-receiver", { recent: "yes" }), translate(ctx, "order-recent-title"), ...lines].join("\n");
}

/**
 * Step 1: receiver by address (optionally with a label), by label, by button; lines or a .csv switch to a batch.
 * `lead` goes above the question in the same message (what the flow already knows, what a link could not give).
 */
export async function askReceiver(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: BotDeps,
  flow: string,
  chatId: number,
  lead?: string,
): Promise<ReceiverAnswer> {
  const recent = await conversation.external(() => deps.flows.addressBook.list(chatId));
  const question = lead === undefined ? receiverPrompt(ctx, recent) : `${lead}\n\n${receiverPrompt(ctx, recent)}`;
  const shown: ShownMessage[] = [await sendStepPrompt(conversation, ctx, question, { ...HTML, reply_markup: createReceiverKeyboard(ctx, flow, recent) })];
  const answer = async (a: ReceiverAnswer): Promise<ReceiverAnswer> => {
    await closeShown(conversation, ctx, deps, shown, a.kind === "address" ? { prompt: question, answer: a.address } : undefined);
    return a;
  };
  const contracts = knownContractsOf(deps.flows);
  /** A token contract is no wallet: refused here, before any quote, and the step asks again. */
  const refusedContract = async (address: string): Promise<boolean> => {
    if (!contracts.includes(address)) return false;
    shown.push(
      (await ctx.reply(translate(ctx, "order-receiver-contract", { address: code(address) }), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) }))
        .message_id,
    );
    return true;
  };
  for (;;) {
    const input = await waitStep(conversation, flow, "receiver");
    if (input.kind === "button") {
      const entry: AddressBookEntry | undefined = input.action === "a" ? recent[Number(input.value)] : undefined;
      if (entry && !(await refusedContract(entry.address))) return answer({ kind: "address", address: entry.address });
      continue;
    }
    if (input.kind === "document") {
      if (input.csv) return answer({ kind: "document", fileId: input.fileId, fileSize: input.fileSize, ctx: input.ctx });
      await ctx.reply(translate(ctx, "order-document-not-csv"), HTML);
      continue;
    }
    const text = input.text.trim();
    if (text.split(/\r?\n/).filter((l) => l.trim()).length > 1) return answer({ kind: "batch", text });
    const [first = "", ...rest] = text.split(/\s+/);
    if (isValidTronAddress(first)) {
      if (await refusedContract(first)) continue;
      await closeShown(conversation, ctx, deps, shown);
      const label = normalizeLabel(rest.join(" "));
      if (label) {
        const saved = await conversation.external(() => deps.flows.addressBook.add(chatId, first, label, deps.flows.now()));
        if (saved.ok) await ctx.reply(translate(ctx, "order-receiver-saved", { address: code(first), label: saved.entry.label ?? label }), HTML);
        else await ctx.reply(addressBookRefusalText(ctx, saved.reason, label), HTML);
      }
      return { kind: "address", address: first };
    }
    const byLabel = await conversation.external(() => deps.flows.addressBook.findByLabel(chatId, text));
    if (byLabel) {
      if (await refusedContract(byLabel.address)) continue;
      return answer({ kind: "address", address: byLabel.address });
    }
    shown.push((await ctx.reply(translate(ctx, "order-receiver-invalid"), { ...HTML, reply_markup: createCancelOnlyKeyboard(ctx, flow) })).message_id);
  }
}

/**
 * The amounts people order most, one tap each: one USDT transfer to an address that holds USDT (about
 * 64,000 energy, 65,000 with headroom), to one that never did (about 130,000), and two such transfers.
 */
const AMOUNT_PRESETS = [65_000, 131_000, 200_000] as const;

/** Step 2: amount within the pricing's range; accepts 100k, 65,000, 65 000, 10万, 100 тыс (read in the user's locale). */
export async function askAmount(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: Pick<BotDeps, "store">,
  flow: string,
  pricing: Pricing,
  locale: string,
): Promise<number> {
  const range = { min: formatInteger(pricing.amountMin, locale), max: formatInteger(pricing.amountMax, locale) };
  const presets = AMOUNT_PRESETS.filter((amount) => amount >= pricing.amountMin && amount <= pricing.amountMax);
  const keyboard = new InlineKeyboard();
  for (const amount of presets) {
    keyboard.text(ctx.t(`order-amount-preset-${amount}`, { amount: formatInteger(amount, locale) }), orderStepData.pack({ flow, action: "m", value: amount }));
  }
  const question = translate(ctx, "order-ask-amount", range);
  const prompt = await sendStepPrompt(conversation, ctx, question, {
    ...HTML,
    reply_markup: keyboard.row().text(ctx.t("order-cancel-button"), cancelData.pack({ flow: "order", instance: flow })),
  });
  for (;;) {
    const input = await waitStep(conversation, flow, "amount");
    if (input.kind === "button" && input.action === "m" && presets.some((amount) => String(amount) === input.value)) {
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: formatInteger(Number(input.value), locale) });
      return Number(input.value);
    }
    if (input.kind !== "text") continue;
    const checked = checkAmount(input.text, pricing, locale);
    if (checked.ok) {
      await closeStepPrompt(conversation, ctx, deps, prompt, { prompt: question, answer: formatInteger(checked.amount, locale) });
      return checked.amount;
    }
    if (checked.reason === "bad_amount" && checked.readings) {
      await ctx.reply(ambiguousAmountText(ctx, input.text.trim(), checked.readings, locale), HTML);
      continue;
    }
    await ctx.reply(translate(ctx, checked.reason === "bad_amount" ? "order-amount-invalid" : "order-amount-range", range), HTML);
  }
}

/** Step 3: duration from the live tiers (buttons), or typed as seconds, a label or words ("15 минут", "1小时"). */
export async function askDuration(
  conversation: FlowConversation,
  ctx: ConversationContext,
  deps: Pick<BotDeps, "store">,
  flow: string,
  pricing: Pricing,
  promptKey = "order-ask-duration",
  vars: Record<string, number> = {},
): Promise<number> {
  const question = translate(ctx, promptKey, vars);
  const shown: ShownMessage[] = [
    await sendStepPrompt(conversation, ctx, question, { ...HTML, reply_markup: createDurationKeyboard(ctx, flow, pricing.tiers) }),
  ];
  for (;;) {
    const input = await waitStep(conversation, flow, "duration");
    let tier: Pricing["tiers"][number] | undefined;
    if (input.kind === "button" && input.action === "d") tier = pricing.tiers.find((t) => t.durationSec === Number(input.value));
    else if (input.kind === "text") {
      tier = resolveTier(input.text, pricing.tiers);
      if (!tier) {
        // One set of duration buttons at a time: the reminder brings its own.
        await closeShown(conversation, ctx, deps, shown.splice(0));
        shown.push(
          (await ctx.reply(translate(ctx, "order-duration-invalid"), { ...HTML, reply_markup: createDurationKeyboard(ctx, flow, pricing.tiers) })).message_id,
        );
      }
    }
    if (tier) {
      await closeShown(conversation, ctx, deps, shown, { prompt: question, answer: tierLabel(ctx, tier) });
      return tier.durationSec;
    }
  }
}
