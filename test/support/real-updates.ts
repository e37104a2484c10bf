/**
 * Real Telegram updates (test/fixtures/telegram-updates/*.json, each with its
 * source) with the text set per test: a command gets its bot_command entity
 * as Telegram would mark it. `chatId` moves the update into the test's chat
 * (in a private chat the sender is the chat's user, as Telegram has it);
 * `data` sets a callback query's button data.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Update } from "grammy/types";
import { commandEntities } from "../../testkit/updates.js";

const DIRECTORY = join(import.meta.dirname, "..", "fixtures", "telegram-updates");

type Json = Record<string, unknown>;

export function loadUpdate(name: string, options: { text?: string; updateId?: number; chatId?: number; data?: string } = {}): Update {
  const fixture = JSON.parse(readFileSync(join(DIRECTORY, `${name}.json`), "utf8")) as { source: string; update: Update };
  const update = structuredClone(fixture.update);
  if (options.updateId !== undefined) update.update_id = options.updateId;
  const query = update.callback_query as Json | undefined;
  const msg = (update.message ?? update.edited_message ?? update.channel_post ?? query?.["message"]) as Json | undefined;
  if (msg && options.text !== undefined) {
    msg["text"] = options.text;
    const entities = commandEntities(options.text);
    if (entities.length > 0) msg["entities"] = entities;
    else delete msg["entities"];
  }
  if (options.chatId !== undefined) {
    const chat = msg?.["chat"] as Json | undefined;
    if (chat) chat["id"] = options.chatId;
    const sender = (query?.["from"] ?? msg?.["from"]) as Json | undefined;
    if (sender && chat?.["type"] === "private") sender["id"] = options.chatId;
  }
  if (query && options.data !== undefined) query["data"] = options.data;
  return update;
}
