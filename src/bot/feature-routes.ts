import { Composer, type MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import type { BotContext } from "./context.js";
import { inFlow as isInFlow } from "./helpers/flow-instance.js";

/**
 * What a feature answers, so that an update passes only the features that may
 * take it, in their order, through grammY's `Composer#route`. A feature
 * declares a superset of what it handles: a declared feature that lets an
 * update pass (`next`) changes nothing, a missing declaration loses updates.
 */
export interface FeatureRoutes {
  /** Command names as given to `command` (a message or channel post starting with one of them). */
  readonly commands?: readonly string[];
  /** Callback-data families: a prefix, or a `createCallbackData` result (data `prefix` or `prefix:…`). */
  readonly callbacks?: ReadonlyArray<string | { readonly prefix: string }>;
  readonly inlineQueries?: boolean;
  /** Every message and edited message or post, commands included (text, caption and document readers). */
  readonly messages?: boolean;
}

export interface BotFeature {
  readonly composer: Composer<BotContext>;
  /** Absent: the feature sees every update. */
  readonly routes?: FeatureRoutes;
  /** Middleware of the feature that sees every update, before its composer. */
  readonly always?: MiddlewareFn<BotContext>;
  /**
   * The conversation the feature's handlers enter (the plugin's
   * `createConversation`): installed before them, so `enter` finds it, and
   * run for every update of a chat in a flow, which it may be waiting for.
   */
  readonly conversation?: MiddlewareFn<BotContext>;
}

type RouteKey = `command:${string}` | `callback:${string}` | "command" | "callback" | "inline" | "message" | "other";

/**
 * One middleware that runs each update through the features that may take it,
 * in list order; an update none takes goes on (`next`).
 */
export function routeFeatures(features: readonly BotFeature[]): Composer<BotContext> {
  const commands = new Set(features.flatMap((f) => f.routes?.commands ?? []));
  const callbacks = new Set(features.flatMap((f) => (f.routes?.callbacks ?? []).map(prefixOf)));
  const keys: RouteKey[] = [
    "command",
    "callback",
    "inline",
    "message",
    "other",
    ...[...commands].map((c) => `command:${c}` as const),
    ...[...callbacks].map((p) => `callback:${p}` as const),
  ];
  // A chat in a flow has every feature's conversation on its route, each at its feature's place: the one it is in
  // may be waiting for this update. Outside any flow a conversation has nothing to resume, and runs only before the
  // handlers of its feature, which may enter it.
  const routes: Record<string, Composer<BotContext>> = {};
  for (const inFlow of [false, true]) {
    for (const key of keys) {
      const composer = new Composer<BotContext>();
      for (const feature of features) {
        const taken = takes(feature.routes, key);
        if (feature.always) composer.use(feature.always);
        if (feature.conversation && (taken || inFlow)) composer.use(feature.conversation);
        if (taken) composer.use(feature.composer);
      }
      routes[inFlow ? `flow ${key}` : key] = composer;
    }
  }
  const router = new Composer<BotContext>();
  router.route((ctx) => {
    const key = routeOf(ctx.update, commands, callbacks);
    return isInFlow(ctx) ? `flow ${key}` : key;
  }, routes);
  return router;
}

function prefixOf(family: string | { readonly prefix: string }): string {
  return typeof family === "string" ? family : family.prefix;
}

/** Whether a feature with these routes may take an update of this key. */
function takes(routes: FeatureRoutes | undefined, key: RouteKey): boolean {
  if (routes === undefined) return true;
  if (key === "inline") return routes.inlineQueries === true;
  if (key === "message" || key === "command") return routes.messages === true;
  if (key.startsWith("command:")) return routes.messages === true || (routes.commands ?? []).includes(key.slice("command:".length));
  if (key.startsWith("callback:")) return (routes.callbacks ?? []).some((family) => prefixOf(family) === key.slice("callback:".length));
  return false;
}

/**
 * The key of an update: its command as grammY's `command` reads it (a
 * `bot_command` entity at offset 0 of a message's or post's text, an
 * `@username` suffix aside), its callback data's prefix, or its kind. A
 * command or prefix no feature declared has its kind's key.
 */
export function routeOf(update: Update, commands: ReadonlySet<string>, callbacks: ReadonlySet<string>): RouteKey {
  if (update.inline_query) return "inline";
  if (update.callback_query) {
    const data = update.callback_query.data;
    if (data === undefined) return "callback";
    const colon = data.indexOf(":");
    const prefix = colon === -1 ? data : data.slice(0, colon);
    return callbacks.has(prefix) ? `callback:${prefix}` : "callback";
  }
  const commandable = update.message ?? update.channel_post;
  const message = commandable ?? update.edited_message ?? update.edited_channel_post;
  if (message === undefined) return "other";
  const entity = commandable?.entities?.find((e) => e.offset === 0 && e.type === "bot_command");
  if (entity === undefined || commandable?.text === undefined) return "message";
  const written = commandable.text.substring(1, entity.length);
  const at = written.indexOf("@");
  const command = at === -1 ? written : written.slice(0, at);
  return commands.has(command) ? `command:${command}` : "command";
}
