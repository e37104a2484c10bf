import { Api, Composer, Context } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { describe, expect, it } from "vitest";
import { routeFeatures, routeOf, type BotFeature } from "../../src/bot/feature-routes.js";
import type { BotContext } from "../../src/bot/context.js";
import { createCallbackData } from "../../src/bot/callback-data/create-callback-data.js";

// The fields this grammY version's type adds to getMe's answer do not matter to routing.
const me = {
  id: 1,
  is_bot: true,
  first_name: "Bot",
  username: "energy_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: true,
  can_connect_to_business: false,
  has_main_web_app: false,
} as UserFromGetMe;
const chat = { id: 7, type: "private" as const, first_name: "U" };
const from = { id: 7, is_bot: false, first_name: "U" };

function text(value: string, edited = false): Update {
  const entities = value.startsWith("/") ? [{ type: "bot_command" as const, offset: 0, length: value.split(" ")[0]!.length }] : undefined;
  const message = { message_id: 1, date: 0, chat, from, text: value, ...(entities ? { entities } : {}) };
  return edited ? { update_id: 1, edited_message: { ...message, edit_date: 1 } } : { update_id: 1, message };
}
const press = (data: string): Update => ({
  update_id: 1,
  callback_query: { id: "q", from, chat_instance: "c", data, message: { message_id: 2, date: 0, chat, text: "card" } },
});
const inline: Update = { update_id: 1, inline_query: { id: "i", from, query: "100000 1h", offset: "" } };
const member: Update = {
  update_id: 1,
  my_chat_member: { chat, from, date: 0, old_chat_member: { status: "member", user: from }, new_chat_member: { status: "kicked", user: from, until_date: 0 } },
};

/** Runs an update through the routed features; returns what each saw, in order, and whether it went on past them. */
async function route(features: BotFeature[], update: Update, options: { inFlow?: boolean } = {}): Promise<{ saw: string[]; passed: boolean }> {
  const ctx = new Context(update, new Api("token"), me) as BotContext;
  Object.assign(ctx, { conversation: { active: () => (options.inFlow === true ? { flow: 1 } : {}) } });
  let passed = false;
  await routeFeatures(features).middleware()(ctx, () => {
    passed = true;
    return Promise.resolve();
  });
  return { saw: seen.splice(0), passed };
}

const seen: string[] = [];
const sees =
  (name: string) =>
  (_ctx: BotContext, next: () => Promise<void>): Promise<void> => {
    seen.push(name);
    return next();
  };
/** A feature that records each update it sees and lets it go on. */
function feature(name: string, routes?: BotFeature["routes"], extra: Omit<BotFeature, "composer" | "routes"> = {}): BotFeature {
  return { composer: new Composer<BotContext>(sees(name)), ...(routes ? { routes } : {}), ...extra };
}

const quoteData = createCallbackData("quote", ["id", "action"]);

describe("an update's route", () => {
  const commands = new Set(["order", "help"]);
  const callbacks = new Set(["quote", "menu"]);

  it("is its command, as grammY's command filter reads it, with or without this bot's @username", () => {
    expect(routeOf(text("/order TXYZ 65000 1h"), commands, callbacks)).toBe("command:order");
    expect(routeOf(text("/help@energy_bot"), commands, callbacks)).toBe("command:help");
    expect(routeOf(text("/frobnicate"), commands, callbacks)).toBe("command");
  });

  it("is a message when the text starts with no command, and for every edit (an edit never runs a command)", () => {
    expect(routeOf(text("TXYZ"), commands, callbacks)).toBe("message");
    expect(routeOf(text("/order TXYZ", true), commands, callbacks)).toBe("message");
  });

  it("is the callback data's prefix, or just a callback for a prefix nobody declared or no data", () => {
    expect(routeOf(press("quote:abc:c"), commands, callbacks)).toBe("callback:quote");
    expect(routeOf(press("menu"), commands, callbacks)).toBe("callback:menu");
    expect(routeOf(press("gone:1"), commands, callbacks)).toBe("callback");
    expect(routeOf({ update_id: 1, callback_query: { id: "q", from, chat_instance: "c", game_short_name: "g" } }, commands, callbacks)).toBe("callback");
  });

  it("is inline for an inline query and other for the rest", () => {
    expect(routeOf(inline, commands, callbacks)).toBe("inline");
    expect(routeOf(member, commands, callbacks)).toBe("other");
  });
});

describe("routing updates to features", () => {
  const features = [
    feature("order", { commands: ["order"], callbacks: [quoteData, "menu"] }),
    feature("everything"),
    feature("texts", { messages: true }),
    feature("inline", { inlineQueries: true }),
    feature("help", { commands: ["help"], callbacks: ["menu"] }),
  ];

  it("passes a command only through the features that declared it, those that read messages and those that declared nothing, in list order", async () => {
    expect(await route(features, text("/order TXYZ"))).toEqual({ saw: ["order", "everything", "texts"], passed: true });
    expect(await route(features, text("/help"))).toEqual({ saw: ["everything", "texts", "help"], passed: true });
    expect(await route(features, text("/frobnicate"))).toEqual({ saw: ["everything", "texts"], passed: true });
  });

  it("passes a button to the features of its data's family", async () => {
    expect((await route(features, press(quoteData.pack({ id: "q1", action: "c" })))).saw).toEqual(["order", "everything"]);
    expect((await route(features, press("menu:help"))).saw).toEqual(["order", "everything", "help"]);
    expect((await route(features, press("gone:1"))).saw).toEqual(["everything"]);
  });

  it("passes an inline query, a plain text and any other update to the features that may take it", async () => {
    expect((await route(features, inline)).saw).toEqual(["everything", "inline"]);
    expect((await route(features, text("hello"))).saw).toEqual(["everything", "texts"]);
    expect((await route(features, member)).saw).toEqual(["everything"]);
  });

  it("stops at the feature that takes the update", async () => {
    const taking: BotFeature = { composer: new Composer<BotContext>(() => void seen.push("takes")), routes: { commands: ["order"] } };
    expect(await route([taking, feature("after", { commands: ["order"] })], text("/order"))).toEqual({ saw: ["takes"], passed: false });
  });

  it("runs a feature's conversation before its handlers on its own routes, and on every route only while the chat is in a flow", async () => {
    const withFlow = [feature("help", { commands: ["help"] }), feature("limits", { commands: ["limits"] }, { conversation: sees("limits-conversation") })];
    expect((await route(withFlow, text("/limits"))).saw).toEqual(["limits-conversation", "limits"]);
    expect((await route(withFlow, text("/help"))).saw).toEqual(["help"]);
    expect((await route(withFlow, text("/help"), { inFlow: true })).saw).toEqual(["help", "limits-conversation"]);
    expect((await route(withFlow, text("12.5"), { inFlow: true })).saw).toEqual(["limits-conversation"]);
  });

  it("runs a feature's always-middleware on every update, at its place", async () => {
    const list = [feature("help", { commands: ["help"] }), feature("start", { commands: ["start"] }, { always: sees("start-always") })];
    expect((await route(list, press("x:1"))).saw).toEqual(["start-always"]);
    expect((await route(list, text("/help"))).saw).toEqual(["help", "start-always"]);
  });
});
