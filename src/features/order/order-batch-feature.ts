import { Composer } from "grammy";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { ORDER_CONVERSATION, type OrderConversationArgs } from "../../bot/conversations/flow-ids.js";
import { linkedOnly } from "../../bot/filters/linked.js";
import { isCsvDocument } from "../../bot/helpers/document.js";
import { logHandle } from "../../bot/helpers/logging.js";

/**
 * Batch orders: `/batch` asks for pasted lines or a .csv; a .csv document
 * sent outside any flow starts the same flow with it. Lines pasted into
 * /order's receiver step are a batch too (see the order conversation).
 */
export function createBatchOrderFeature(): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command(
    "batch",
    logHandle("command-batch"),
    linkedOnly(async (ctx) => {
      // Lines sent with the command are the batch, not lost behind a question about them.
      const lines = ctx.match.trim();
      await ctx.enterFlow(ORDER_CONVERSATION, { batch: true, ...(lines ? { lines } : {}) } satisfies OrderConversationArgs);
    }),
  );

  feature
    .on("message:document")
    .filter((ctx) => isCsvDocument(ctx.message.document))
    .use(
      logHandle("document-batch"),
      linkedOnly(async (ctx) => {
        const doc = ctx.message.document;
        const args: OrderConversationArgs = { document: { fileId: doc.file_id, ...(doc.file_size === undefined ? {} : { fileSize: doc.file_size }) } };
        await ctx.enterFlow(ORDER_CONVERSATION, args);
      }),
    );

  return { composer, routes: { messages: true } };
}
