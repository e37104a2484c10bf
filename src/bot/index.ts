import { conversations } from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import { Composer, Api, Bot, type Middleware, type Transformer } from "grammy";
import type { BotApiFetch } from "../platform/telegram/telegram-fetch.js";
import type { UserFromGetMe } from "grammy/types";
import type { BotContext, ConversationContext } from "./context.js";
import { createConversationStorage } from "./conversation-storage.js";
import { createStepPrompts } from "./helpers/step-prompt.js";
import { CONVERSATION_STATE_VERSION, CONVERSATION_TTL_MS, createConversations } from "./conversations/index.js";
import { createLinkFeature, createPastedKeyLinker, createUnlinkFeature, createWebhookFeature } from "../features/account/index.js";
import { LINK_CONVERSATION, WEBHOOK_SECRET_CONVERSATION } from "./conversations/flow-ids.js";
import type { BotDeps } from "./deps.js";
import { createAlertsFeature, createBalanceFeature, createTopUpFeature } from "../features/balance/index.js";
import { createBatchOrderFeature, createOrderFeature, createQuickOrderFeature } from "../features/order/index.js";
import { createBroadcastFeature } from "../features/broadcast/index.js";
import { createCancelFeature } from "./handlers/cancel.js";
import { createChatMemberFeature } from "./handlers/chat-member.js";
import { createExpiryFeature } from "../features/expiry/index.js";
import { createHelpFeature, createHomeFeature, createStartFeature, startPayloadCommands } from "../features/home/index.js";
import { createInlineQuoteFeature } from "../features/inline-quote/index.js";
import { createLanguageFeature, createSettingsFeature, createTimeZoneFeature } from "../features/settings/index.js";
import { createLimitsFeature } from "../features/limits/index.js";
import { createOrdersFeature, createOrdersView, createTrackFeature } from "../features/history/index.js";
import { createAddressesFeature } from "../features/addresses/index.js";
import { createPricesFeature, createSystemFeature } from "../features/prices/index.js";
import { createStatementFeature } from "../features/statement/index.js";
import { createKeepFeature } from "../features/keep/index.js";
import { createUnhandledFeature } from "./handlers/unhandled.js";
import { createErrorHandler } from "./handlers/error.js";
import { telegramRetry, type TelegramRetryOptions } from "./middlewares/telegram-retry.js";
import { telegramPacing } from "./middlewares/telegram-pacing.js";
import type { TelegramBudget } from "../platform/push/telegram-budget.js";
import { createAnsweredQueries, type AnsweredQueries } from "./middlewares/answered-queries.js";
import { commandLeavesFlow, editedSecretGuard, flowEntry } from "./middlewares/flow-guard.js";
import { groupGuard } from "./middlewares/group-guard.js";
import { inaccessibleMessageAnswers } from "./middlewares/inaccessible-message.js";
import { linkedChat } from "./middlewares/linked-chat.js";
import { rememberTelegramLanguage } from "./middlewares/telegram-language.js";
import { withLinks } from "./middlewares/links.js";
import { createLinks } from "./helpers/links.js";
import { createGroupRights } from "./middlewares/group-rights.js";
import { ownIdGuard } from "./middlewares/own-id-guard.js";
import { serviceSecretGuard } from "./middlewares/service-secret-guard.js";
import { updateContext } from "./middlewares/update-context.js";
import { bindLogger } from "./helpers/lazy-logger.js";
import { BOT_COMMANDS, rememberMenu } from "./register-commands.js";
import { createSendFeature } from "../features/send/index.js";
import { routeFeatures, type BotFeature } from "./feature-routes.js";

export type { BotContext, ConversationContext } from "./context.js";
export type { BotDeps } from "./deps.js";
export { registerCommands } from "./register-commands.js";

export interface CreateBotOptions {
  /** Skips getMe at start (tests, or a known bot). */
  botInfo?: UserFromGetMe;
  /** Bot API root; defaults to config.telegramApiRoot, then Telegram. */
  apiRoot?: string;
  /** Installed before auto-retry, so they see every attempt (src/platform/telegram/telegram-link.ts). */
  innerTransformers?: Transformer[];
  /** The backoff after Telegram's 5xx answers (tests shorten it). */
  retry?: TelegramRetryOptions;
  /** The Bot API client's HTTP (src/platform/telegram/telegram-fetch.ts); grammY's own otherwise. */
  fetch?: BotApiFetch;
  /**
   * The process's Telegram budget, shared with the push queue: the bot's
   * messages are paced by it and wait out a 429 (middlewares/telegram-pacing.ts).
   * Without it they go unpaced.
   */
  budget?: TelegramBudget;
}

/** grammY's default is 500 s per call; a Bot API call that has not answered in a minute will not. */
export const TELEGRAM_CALL_TIMEOUT_SECONDS = 60;

/**
 * THE feature list, in order. A feature is `createXFeature(deps)` returning
 * its Composer and what it answers (feature-routes.ts); public ones are not
 * narrowed, key-bearing ones use `.chatType("private")` (the group guard
 * stops them in groups anyway). /start payloads `order_…` are passed on
 * (next) to the order feature.
 */
function createFeatures(deps: BotDeps): BotFeature[] {
  return [
    createHomeFeature(deps), // first: a main action pressed on a card is marked to navigate in place
    createStartFeature(deps),
    createHelpFeature(),
    createLanguageFeature(deps),
    createLinkFeature(deps),
    createUnlinkFeature(deps),
    createWebhookFeature(deps), // holds its secret conversation: early, before text-reading features
    createLimitsFeature(deps), // holds its input conversation: early, before text-reading features
    createSettingsFeature(deps),
    createTimeZoneFeature(deps, createOrdersView(deps)), // holds its input conversation: early, before text-reading features
    createAlertsFeature(deps),
    createBalanceFeature(deps),
    createPricesFeature(deps),
    createSystemFeature(deps),
    createInlineQuoteFeature(deps),
    // Broadcast first: its wallet-secret guard must see a captioned document before the batch feature takes it.
    createBroadcastFeature(deps),
    ...(deps.send ? [createSendFeature({ ...deps, send: deps.send })] : []),
    createOrderFeature(deps),
    createQuickOrderFeature(deps),
    createBatchOrderFeature(),
    createOrdersFeature(deps),
    createStatementFeature(deps),
    createAddressesFeature(deps),
    createTrackFeature(deps),
    createExpiryFeature(deps),
    createTopUpFeature(deps),
    ...(deps.keep ? [createKeepFeature({ ...deps, keep: deps.keep })] : []),
  ];
}

/**
 * Builds the bot; does not start it (polling, webhook and setMyCommands are
 * the caller's). Middleware order: per-chat sequentialize -> update context
 * (logger, counter) -> links -> inaccessible messages -> error boundary -> linked chat (record and key, once) -> Telegram language -> i18n -> group guard -> chat member -> conversations ->
 * /cancel and flow buttons -> own-id guard -> edited-secret guard -> command leaves flow ->
 * service-key guard -> conversation builders -> /start with a command as its payload -> the features that may
 * take the update (feature-routes.ts) -> unhandled.
 */
export function createBot(deps: BotDeps, options: CreateBotOptions = {}): Bot<BotContext> {
  const bot = new Bot<BotContext>(deps.config.botToken, {
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
    client: {
      apiRoot: options.apiRoot ?? deps.config.telegramApiRoot ?? "https://api.telegram.org",
      timeoutSeconds: TELEGRAM_CALL_TIMEOUT_SECONDS,
      ...(options.fetch ? { fetch: options.fetch as never } : {}),
    },
  });
  for (const transformer of options.innerTransformers ?? []) bot.api.config.use(transformer);
  // Paced inside auto-retry: every attempt takes its slot. Not the throttler, which misbehaves inside conversations.
  const pacing = options.budget ? [telegramPacing(options.budget)] : [];
  bot.api.config.use(...pacing);
  // Telegram's retry_after for what the pacing does not wait out (queries, reads), lost connections, 5xx.
  bot.api.config.use(...telegramRetry(options.retry));
  const answered = createAnsweredQueries();

  const { i18n } = deps;
  const handleError = createErrorHandler({ chats: deps.chats, answered });
  // Per bot, not per module: the bot's delete right in each group, asked once per few minutes.
  const rights = createGroupRights();
  const links = createLinks(deps.config);

  // @grammyjs/runner handles updates concurrently: keep each chat's updates in order.
  bot.use(sequentialize(updateConstraint));
  const { memo } = deps;
  if (memo) bot.use((_ctx, next) => memo.run(next));
  bot.use(updateContext({ logger: deps.logger, metrics: deps.metrics, answered }));
  bot.use(withLinks(links)); // before the error boundary: its replies link to support too
  bot.use(inaccessibleMessageAnswers()); // a button under a message the bot can no longer see: answered anew, never edited
  const guarded = new Composer<BotContext>();
  bot.errorBoundary(handleError, guarded);
  guarded.use(linkedChat(deps)); // ctx.chatRecord(), ctx.linked(): read and opened at most once per update
  guarded.use(rememberTelegramLanguage(deps)); // the record's Telegram language, written only when it changed
  guarded.use(i18n);
  guarded.use(groupGuard({ rights, commands: BOT_COMMANDS.map((c) => c.command) }));
  // The bot's own membership (block/unblock) before the conversations: a waiting flow must not swallow it.
  guarded.use(createChatMemberFeature(deps, { rights }));
  // Around the plugin: a flow's prompts go out once the plugin stored the step they ask for.
  guarded.use(createStepPrompts(deps));
  guarded.use(
    conversations<BotContext, ConversationContext>({
      storage: createConversationStorage({
        store: deps.store,
        vault: deps.vault,
        logger: deps.logger,
        version: CONVERSATION_STATE_VERSION,
        ttlMs: CONVERSATION_TTL_MS,
        // Redis is the one store several bot processes share (webhook replicas, workers).
        soleWriter: deps.store.kind !== "redis",
      }),
      // Inside a conversation only these plugins exist: translations, the logger, and
      // pacing, auto-retry and answer tracking again (bot.api transformers do not reach a
      // conversation's ctx.api).
      plugins: [
        conversationChatRecord(deps),
        i18n,
        conversationLogger(deps),
        withLinks(links),
        conversationApi(answered, options.retry, pacing),
        inaccessibleMessageAnswers(),
      ],
    }),
  );
  const listed = createConversations(deps);
  guarded.use(flowEntry({ store: deps.store, registerFlows: listed.register }));
  guarded.use(routeFeatures([createCancelFeature(deps)])); // before the builders: a waiting conversation swallows updates
  // Also before the builders and every secret check: a pasted id of this chat's own history is offered for tracking.
  guarded.use(ownIdGuard({ history: deps.flows.history }));
  const pastedKey = createPastedKeyLinker(deps);
  guarded.use(editedSecretGuard({ pastedKey })); // an edit carrying a secret, in any state
  guarded.use(commandLeavesFlow(deps)); // says which flow a command ends, then runs the command
  // Also before the builders: a pasted service key goes in any state, except to the flows that ask for one.
  guarded.use(serviceSecretGuard({ expectingSecrets: [LINK_CONVERSATION, WEBHOOK_SECRET_CONVERSATION], pastedKey }));
  guarded.use(listed.middleware);
  guarded.use(startPayloadCommands());
  guarded.use(routeFeatures(createFeatures(deps)));
  guarded.use(createUnhandledFeature(deps)); // what no feature took
  rememberMenu(bot, BOT_COMMANDS, i18n);

  // Last resort: errors thrown by the error handler itself.
  bot.catch((err) => {
    deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "unhandled bot error");
  });
  return bot;
}

function conversationApi(answered: AnsweredQueries, retry: TelegramRetryOptions | undefined, pacing: Transformer[]): Middleware<ConversationContext> {
  return (ctx, next) => {
    if (pacing.length > 0) {
      // The plugin's own transformer answers a call made before this update from its stored result. Only a call that
      // reaches Telegram may take a slot, so the pacing goes under that transformer, closest to the network.
      const api = new Api(ctx.api.token, ctx.api.options);
      api.config.use(...pacing, ...ctx.api.config.installedTransformers());
      Object.assign(ctx, { api });
    }
    ctx.api.config.use(...telegramRetry(retry), answered.transformer);
    return next();
  };
}

/** Updates of one chat (or, without a chat, of one user) run one after another. */
function updateConstraint(ctx: BotContext): string | undefined {
  return ctx.chat?.id.toString() ?? ctx.from?.id.toString();
}

/** The record the locale comes from, read once per update inside a conversation too (never exposed to its code). */
function conversationChatRecord(deps: BotDeps): Middleware<ConversationContext> {
  return (ctx, next) => {
    const chatId = ctx.chat?.id ?? ctx.from?.id;
    let record: ReturnType<BotContext["chatRecord"]> | undefined;
    const memo: Pick<BotContext, "chatRecord"> = { chatRecord: () => (record ??= chatId === undefined ? Promise.resolve(undefined) : deps.chats.get(chatId)) };
    Object.assign(ctx, memo);
    return next();
  };
}

function conversationLogger(deps: BotDeps): Middleware<ConversationContext> {
  return (ctx, next) => {
    bindLogger(ctx, deps.logger, { update_id: ctx.update.update_id, ...(ctx.chat ? { chat_id: ctx.chat.id } : {}), conversation: true });
    return next();
  };
}
