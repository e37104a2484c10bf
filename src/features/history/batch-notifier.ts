import type { NotificationSettings } from "../../shared/chats/chat-record.js";
import { readBatchProgress, type Batch, type BatchProgress, type BatchStore } from "../../shared/orders/batch-progress.js";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { TrackerChange, TrackerGiveUp } from "../../shared/tracking/tracker.js";
import type { Logger } from "pino";
import { batchCardText, batchFinalCaption, batchResultCsv } from "../../bot/helpers/batch-card-texts.js";
import { code, HTML, translate } from "../../bot/helpers/html.js";
import { documentParams } from "../../bot/helpers/push-document.js";
import type { Translator } from "../../bot/helpers/record-text.js";

export interface BatchNotifierDeps {
  push: Pick<PushQueue, "enqueue">;
  batches: Pick<BatchStore, "batchOf">;
  history: Pick<OrderHistory, "getMany">;
  logger: Logger;
  /**
   * Changes within this window make one card edit, drawn from the state at its end (the latest wins).
   * At least the push queue's per-chat pace, so edits never pile up behind each other. Default 1.5 s.
   */
  coalesceMs?: number;
}

/** How the chat sees it: its language and its /settings, as the tracking notifier resolved them. */
export interface BatchChatView {
  tr: Translator;
  locale: string;
  notify: NotificationSettings;
}

export interface BatchNotifier {
  /** True when the order belongs to a batch: its change is shown on the batch's card, not on its own. */
  onOrderChange(change: Extract<TrackerChange, { kind: "order" }>, view: BatchChatView): Promise<boolean>;
  /**
   * True when the order belongs to a batch: instead of one "gave up" message per order, the batch says it
   * once (following /settings, as a single order's does).
   */
  onGiveUp(event: TrackerGiveUp, view: BatchChatView): Promise<boolean>;
  /** Cancels pending card edits (shutdown); the next change or restart redraws the card. */
  stop(): Promise<void>;
}

/**
 * A batch's orders are tracked one by one; the chat sees one card, edited in
 * place, and one final message with the result CSV once every order is done.
 * Job ids are derived from (batch, counts), so a change offered again after a
 * crash queues nothing new, and the final message goes once.
 */
export function createBatchNotifier(deps: BatchNotifierDeps): BatchNotifier {
  const coalesceMs = deps.coalesceMs ?? 1_500;
  const timers = new Map<string, NodeJS.Timeout>();
  /** Batches this process finished: a redraw read just before must not draw an older count over the final card. */
  const finished = new Set<string>();
  /**
   * Orders' ends announced here and maybe not in the history this card reads yet (another process's write, a
   * read begun before it): two orders ending at once, or a redraw due before their writes, would otherwise each
   * see the other unfinished and leave the card one short of its end for good.
   */
  const announced = new Map<string, Map<string, string>>();
  const announcedOf = (batch: Batch) => announced.get(batch.batchId) ?? new Map<string, string>();
  const jobPrefix = (batch: Batch) => `batch-${batch.chatId}-${batch.batchId}`;

  /** Draws the final card and message when `progress` is the batch's end; false (and nothing sent) before it. */
  async function finish(batch: Batch, view: BatchChatView, progress: BatchProgress): Promise<boolean> {
    if (!progress.done) return false;
    finished.add(batch.batchId);
    announced.delete(batch.batchId);
    const timer = timers.get(batch.batchId);
    if (timer) clearTimeout(timer);
    timers.delete(batch.batchId);
    const { chatId, cardMessageId } = batch;
    // As a single order's final notice: it follows /settings, replies to the card and goes first; the card is always edited.
    if (view.notify.orders) {
      const caption = batchFinalCaption(view.tr, progress, view.locale);
      const document = { filename: `batch-${batch.batchId}.csv`, text: batchResultCsv(progress) };
      const reply = cardMessageId === undefined ? {} : { reply_parameters: { message_id: cardMessageId, allow_sending_without_reply: true } };
      await deps.push.enqueue({
        id: `${jobPrefix(batch)}-final`,
        chatId,
        method: "sendDocument",
        params: documentParams({ chat_id: chatId, caption, ...HTML, ...reply }, document),
        priority: "notice",
      });
    }
    if (cardMessageId !== undefined) {
      const text = batchCardText(view.tr, progress, view.locale);
      await deps.push.enqueue({
        id: `${jobPrefix(batch)}-card-done`,
        chatId,
        method: "editMessageText",
        params: { chat_id: chatId, message_id: cardMessageId, text, ...HTML },
        priority: "refresh",
      });
    }
    return true;
  }

  async function redraw(batch: Batch, view: BatchChatView): Promise<void> {
    // One reading decides both: read twice, the last order could finish in between and be drawn as a count and as the end.
    const progress = await readBatchProgress(deps.history, batch, announcedOf(batch));
    if (await finish(batch, view, progress)) return;
    if (batch.cardMessageId === undefined) return;
    // Only a count the card does not show yet is worth an edit (Telegram refuses an unchanged one).
    if (finished.has(batch.batchId) || progress.fulfilled <= batch.placedFulfilled) return;
    const text = batchCardText(view.tr, progress, view.locale);
    // One id per state: the same counts are never queued twice.
    await deps.push.enqueue({
      id: `${jobPrefix(batch)}-card-${progress.fulfilled}`,
      chatId: batch.chatId,
      method: "editMessageText",
      params: { chat_id: batch.chatId, message_id: batch.cardMessageId, text, ...HTML },
      priority: "refresh",
    });
  }

  function scheduleRedraw(batch: Batch, view: BatchChatView): void {
    if (timers.has(batch.batchId)) return;
    const timer = setTimeout(() => {
      timers.delete(batch.batchId);
      redraw(batch, view).catch((error: unknown) => {
        deps.logger.warn({ err: error, batchId: batch.batchId }, "batch card redraw failed; the next change redraws it");
      });
    }, coalesceMs);
    timers.set(batch.batchId, timer);
  }

  return {
    async onOrderChange(change, view) {
      const batch = await deps.batches.batchOf(change.chatId, change.record.orderId);
      if (!batch) return false;
      const seen = announcedOf(batch);
      // Ends only: an end never changes again, while an older in-between status could hide one another process saw.
      if (change.final) {
        seen.set(change.record.orderId, change.record.status);
        announced.set(batch.batchId, seen);
      }
      // Only a finished order changes the counts. The last one ends the batch now; until then they are drawn
      // later together, and that redraw checks for the end too: two orders finishing at once may each see the other unfinished.
      if (change.final && !(await finish(batch, view, await readBatchProgress(deps.history, batch, seen)))) scheduleRedraw(batch, view);
      return true;
    },
    async onGiveUp(event, view) {
      const batch = await deps.batches.batchOf(event.chatId, event.id);
      if (!batch) return false;
      announced.delete(batch.batchId);
      if (!view.notify.orders) return true;
      const text = translate(view.tr, "batch-gave-up", { count: batch.orderIds.length, command: code("/orders") });
      await deps.push.enqueue({
        id: `${jobPrefix(batch)}-giveup`,
        chatId: batch.chatId,
        method: "sendMessage",
        params: { chat_id: batch.chatId, text, ...HTML },
      });
      return true;
    },
    stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      announced.clear();
      return Promise.resolve();
    },
  };
}
