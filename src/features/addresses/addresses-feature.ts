import { Composer } from "grammy";
import { addressesData } from "../../bot/callback-data/addresses.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import { ADDRESSES_CONVERSATION, type AddressesConversationArgs } from "../../bot/conversations/flow-ids.js";
import type { BotDeps } from "../../bot/deps.js";
import { labelledAddressText, listScreen, type AddressListScreen } from "./addresses-texts.js";
import { addressBookRefusalText } from "../../bot/helpers/refusal-texts.js";
import { editIgnoringUnchanged } from "../../bot/helpers/edit.js";
import { html, HTML, translate } from "../../bot/helpers/html.js";
import { logHandle } from "../../bot/helpers/logging.js";
import { createAddressDeleteKeyboard, createAddressEntryKeyboard } from "./addresses-keyboards.js";

/**
 * /addresses: the labelled addresses by buttons (open one to rename or
 * delete it, ➕ to add), and the one-line forms
 * `/addresses add <address> <label>` and `/addresses rename <label> <new label>`.
 * The book is the chat's own: no linked key is needed.
 */
export function createAddressesFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");
  const book = deps.flows.addressBook;

  /** `<address|old label> <new label>`: the old label may have several words, the longest saved one wins. */
  async function splitRename(chatId: number, words: readonly string[]): Promise<{ address: string | undefined; newLabel: string }> {
    for (let k = words.length - 1; k >= 1; k -= 1) {
      const address = await book.resolve(chatId, words.slice(0, k).join(" "));
      if (address !== undefined) return { address, newLabel: words.slice(k).join(" ") };
    }
    return { address: undefined, newLabel: words.slice(1).join(" ") };
  }

  feature.command("addresses", logHandle("command-addresses"), async (ctx) => {
    const chatId = ctx.chat.id;
    const [verb = "", first = "", ...rest] = ctx.match.trim().split(/\s+/);
    if (verb === "") {
      const { text, keyboard } = listScreen(ctx, await book.labelled(chatId), 0);
      await ctx.reply(text, { ...HTML, reply_markup: keyboard });
      return;
    }
    const label = rest.join(" ");
    if (verb.toLowerCase() === "add" && first !== "" && label !== "") {
      const result = await book.add(chatId, first, label, deps.flows.now());
      await ctx.reply(
        result.ok
          ? translate(ctx, "addresses-saved", { entry: html(labelledAddressText(ctx, result.entry)) })
          : addressBookRefusalText(ctx, result.reason, result.reason === "bad_address" ? first : label),
        HTML,
      );
      return;
    }
    if (verb.toLowerCase() === "rename" && first !== "" && label !== "") {
      const { address, newLabel } = await splitRename(chatId, [first, ...rest]);
      const result = address === undefined ? { ok: false as const, reason: "not_found" as const } : await book.rename(chatId, address, newLabel);
      await ctx.reply(
        result.ok
          ? translate(ctx, "addresses-saved", { entry: html(labelledAddressText(ctx, result.entry)) })
          : addressBookRefusalText(ctx, result.reason, result.reason === "not_found" ? first : newLabel),
        HTML,
      );
      return;
    }
    await ctx.reply(translate(ctx, "addresses-usage"), HTML);
  });

  feature.callbackQuery(addressesData.filter, logHandle("callback-addresses"), async (ctx) => {
    const data = addressesData.unpack(ctx.callbackQuery.data);
    const chatId = ctx.chat.id;
    const show = async (screen: AddressListScreen) => {
      await editIgnoringUnchanged(() => ctx.editMessageText(screen.text, { ...HTML, reply_markup: screen.keyboard }));
    };
    if (data?.action === "p") {
      await ctx.answerCallbackQuery();
      await show(listScreen(ctx, await book.labelled(chatId), Number.parseInt(data.value, 10) || 0));
      return;
    }
    // The list this was pressed on is redrawn once the flow has saved: it never says "1 saved" after a second is added.
    const card = ctx.callbackQuery.message?.message_id;
    if (data?.action === "a") {
      await ctx.answerCallbackQuery();
      await ctx.enterFlow(ADDRESSES_CONVERSATION, { ...(card === undefined ? {} : { card }) } satisfies AddressesConversationArgs);
      return;
    }
    const entry = data === undefined ? undefined : (await book.list(chatId)).find((e) => e.address === data.value && e.label !== undefined);
    if (data === undefined || entry === undefined) {
      // A press on a deleted entry, an old list, or data nobody sent.
      await ctx.answerCallbackQuery({ text: ctx.t("addresses-gone") });
      return;
    }
    await ctx.answerCallbackQuery();
    if (data.action === "e")
      await show({
        text: translate(ctx, "addresses-entry", { entry: html(labelledAddressText(ctx, entry)) }),
        keyboard: createAddressEntryKeyboard(ctx, entry.address),
      });
    else if (data.action === "d")
      await show({
        text: translate(ctx, "addresses-delete-ask", { entry: html(labelledAddressText(ctx, entry)) }),
        keyboard: createAddressDeleteKeyboard(ctx, entry.address),
      });
    else if (data.action === "y") {
      await book.delete(chatId, entry.address);
      const screen = listScreen(ctx, await book.labelled(chatId), 0);
      await show({ ...screen, text: `${translate(ctx, "addresses-deleted", { entry: html(labelledAddressText(ctx, entry)) })}\n\n${screen.text}` });
    } else if (data.action === "r")
      await ctx.enterFlow(ADDRESSES_CONVERSATION, {
        rename: entry.address,
        ...(card === undefined ? {} : { card }),
      } satisfies AddressesConversationArgs);
  });

  return { composer, routes: { commands: ["addresses"], callbacks: [addressesData] } };
}
