/**
 * Real Telegram updates (test/fixtures/telegram-updates/*.json, each with its
 * source) with the text set per test: a command gets its bot_command entity
 * as Telegram would mark it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Update } from "grammy/types";
import { commandEntities } from "../../testkit/updates.js";

const DIRECTORY = join(import.meta.dirname, "..", "fixtures", "telegram-updates");

export function loadUpdate(name: string, options: { text?: string; updateId?: number } = {}): Update {
  const fixture = JSON.parse(readFileSync(join(DIRECTORY, `${name}.json`), "utf8")) as { source: string; update: Update };
  const update = structuredClone(fixture.update);
  if (options.updateId !== undefined) update.update_id = options.updateId;
  const msg = (update.message ?? update.edited_message ?? update.channel_post) as Record<string, unknown> | undefined;
  if (msg && options.text !== undefined) {
    msg["text"] = options.text;
    const entities = commandEntities(options.text);
    if (entities.length > 0) msg["entities"] = entities;
    else delete msg["entities"];
  }
  return update;
}
