/**
 * A fake Telegram Bot API server on 127.0.0.1 that is as strict as Telegram:
 * every call the bot makes is validated (parse modes, button data, message
 * state, limits) and recorded. Tests inject updates, read what the user sees
 * in a chat, and wait for the bot's next message.
 *
 *   const tg = await startFakeTelegram();
 *   const bot = new Bot(tg.token, { botInfo: tg.botInfo, client: { apiRoot: tg.apiRoot } });
 *   await bot.handleUpdate(tg.text(1001, "/start"));
 *   tg.view(1001) // [{ from: "bot", text: "Welcome…", buttons: [[…]] }]
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message, Update, UserFromGetMe } from "grammy/types";
import { createFaultBook, type TelegramFault } from "./fake-telegram-faults.js";
import { createGroupTools } from "./fake-telegram-groups.js";
import { isAllowedUpdate } from "./fake-telegram-places.js";
import type { Button } from "./fake-telegram-format.js";
import { parseRequest, readBody } from "./fake-telegram-http.js";
import { createMethods, TelegramError, type FakeCore, type PendingQuery } from "./fake-telegram-methods.js";
import {
  createRateLimiter,
  TELEGRAM_RATE_LIMITS,
  type BotStanding,
  type FakeChatState,
  type RateLimitOptions,
  type StoredFile,
  type StoredMessage,
} from "./fake-telegram-state.js";
import { callbackQueryUpdate, inlineQueryUpdate, makeChat, makeMessage, makeUser, messageUpdate, myChatMemberUpdate, type UserSpec } from "../updates.js";

export type { Button, RateLimitOptions, StoredMessage, TelegramFault };
export { TELEGRAM_RATE_LIMITS };

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  ok: boolean;
  errorCode?: number;
  description?: string;
  /** Applied, but the answer was dropped by an injected fault. */
  answerLost?: boolean;
}

export interface FakeTelegramOptions {
  token?: string;
  botInfo?: Partial<UserFromGetMe>;
  /** Off by default; `true` uses Telegram's limits. */
  rateLimits?: boolean | RateLimitOptions;
  /** The clock the rate limits are judged by (default: the real one); a test may share a virtual one with the push queue. */
  now?: () => number;
}

export interface ChatOptions {
  type?: "private" | "group" | "supergroup" | "channel";
  title?: string;
  /** A forum supergroup (is_forum): topics are opened with `openTopic`. */
  forum?: boolean;
  /** The bot's standing (default "member"; in a channel "administrator", which may post). */
  botStanding?: BotStanding;
  /** For private chats: the user's Telegram language. */
  languageCode?: string;
  /** Whether the bot may delete other members' messages (groups). */
  botCanDelete?: boolean;
}

export interface SendOptions {
  /** Sender in groups (defaults to a user with id = |chat id| + 1). */
  from?: UserSpec;
  languageCode?: string;
  /** Sent in this forum topic (message_thread_id, is_topic_message). */
  threadId?: number;
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;

export async function startFakeTelegram(options: FakeTelegramOptions = {}) {
  const token = options.token ?? `123456:${randomBytes(18).toString("base64url")}`;
  const botInfo: UserFromGetMe = {
    id: Number(token.split(":")[0]),
    is_bot: true,
    first_name: "Energy Bot",
    username: "energy_test_bot",
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: true,
    can_connect_to_business: false,
    has_main_web_app: false,
    ...options.botInfo,
  } as UserFromGetMe;
  const calls: RecordedCall[] = [];
  const faults = createFaultBook();
  const listeners = new Set<(m: StoredMessage) => void>();
  /** Waiters for what the chat shows: a new message of the bot or a text edited in place. */
  const shownListeners = new Set<(m: StoredMessage) => void>();
  const updateWaiters = new Set<() => void>();

  function waitOn(
    waiters: Set<(m: StoredMessage) => void>,
    chatId: number,
    timeoutMs: number,
    predicate: (m: StoredMessage) => boolean,
    failure: string,
  ): Promise<StoredMessage> {
    return new Promise<StoredMessage>((resolve, reject) => {
      const listener = (m: StoredMessage) => {
        if (m.chatId !== chatId || !predicate(m)) return;
        waiters.delete(listener);
        clearTimeout(timer);
        resolve(m);
      };
      const timer = setTimeout(() => {
        waiters.delete(listener);
        reject(new Error(`${failure} in chat ${chatId} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(listener);
    });
  }
  let seq = 0;
  let nextUpdateId = 1;
  let nextFileId = 1;
  let nextQueryId = 1;

  const core: FakeCore = {
    token,
    botInfo,
    chats: new Map(),
    files: new Map(),
    queries: new Map(),
    commands: new Map(),
    webhook: { url: "" },
    allowedUpdates: undefined,
    updates: [],
    rate: undefined,
    now: options.now ?? (() => Date.now()),
    pendingPoll: undefined,
    nextSeq: () => ++seq,
    addFile(bytes, fileName, mimeType) {
      const n = nextFileId++;
      const f: StoredFile = {
        fileId: `file${n}_${randomBytes(6).toString("hex")}`,
        fileUniqueId: `uniq${n}`,
        path: `documents/file_${n}_${fileName}`,
        fileName,
        mimeType,
        bytes,
      };
      core.files.set(f.fileId, f);
      return f;
    },
    onBotMessage: (m) => {
      for (const l of listeners) l(m);
      for (const l of shownListeners) l(m);
    },
    onBotTextEdit: (m) => {
      for (const l of shownListeners) l(m);
    },
    waitForUpdates: (timeoutMs, signal) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          updateWaiters.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        updateWaiters.add(done);
        if (signal.aborted) done();
        else signal.addEventListener("abort", done, { once: true });
      }),
  };
  const methods = createMethods(core);
  const setRateLimits = (value: boolean | RateLimitOptions | undefined) => {
    core.rate = value ? createRateLimiter(value === true ? TELEGRAM_RATE_LIMITS : value) : undefined;
  };
  setRateLimits(options.rateLimits);

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const reply = (status: number, body: unknown) => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (fileMatch) {
        const file = fileMatch[1] === token ? [...core.files.values()].find((f) => f.path === decodeURIComponent(fileMatch[2]!)) : undefined;
        if (!file) {
          reply(404, { ok: false, error_code: 404, description: "Not Found" });
          return;
        }
        res.writeHead(200, { "content-type": file.mimeType ?? "application/octet-stream" });
        res.end(file.bytes);
        return;
      }
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) {
        reply(404, { ok: false, error_code: 404, description: "Not Found" });
        return;
      }
      if (m[1] !== token) {
        reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
        return;
      }
      const method = m[2]!;
      // A client that goes away (a stopped runner) ends its long poll instead of holding it.
      const gone = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      let params: Record<string, unknown> = {};
      const call: RecordedCall = { method, params, at: Date.now(), ok: true };
      try {
        const parsed = parseRequest(url, req.headers["content-type"], await readBody(req));
        params = parsed.params;
        call.params = params;
        calls.push(call);
        const handler = methods[method.toLowerCase()];
        if (!handler) throw new TelegramError(404, "Not Found: method not found");
        const fault = faults.take(method);
        if (fault?.kind === "refuse")
          throw new TelegramError(fault.code, fault.description, fault.retryAfter === undefined ? undefined : { retry_after: fault.retryAfter });
        const result = await handler(params, parsed.files, gone.signal);
        if (fault?.kind === "lose_answer") {
          call.answerLost = true;
          res.destroy();
          return;
        }
        reply(200, { ok: true, result });
      } catch (err) {
        if (!calls.includes(call)) calls.push(call);
        const e = err instanceof TelegramError ? err : new TelegramError(400, `Bad Request: ${(err as Error).message}`);
        call.ok = false;
        call.errorCode = e.code;
        call.description = e.description;
        reply(e.code, { ok: false, error_code: e.code, description: e.description, ...(e.parameters ? { parameters: e.parameters } : {}) });
      }
    })();
  });
  // Telegram keeps an idle connection open far longer than node:http's 5 s: a client that reuses one after 5 s of quiet
  // (node-fetch's agent does) would otherwise meet a reset now and then, which Telegram never gives it.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  // --- chats and injected updates -----------------------------------------

  function addChat(id: number, opts: ChatOptions = {}): FakeChatState {
    let chat = core.chats.get(id);
    if (!chat) {
      const type = opts.type ?? (id < 0 ? "supergroup" : "private");
      chat = {
        id,
        type,
        blocked: false,
        botCanDelete: opts.botCanDelete ?? false,
        botStanding: type === "channel" ? "administrator" : "member",
        nextMessageId: 1,
        messages: new Map(),
        ...(opts.title ? { title: opts.title } : {}),
      };
      core.chats.set(id, chat);
    }
    if (opts.botCanDelete !== undefined) chat.botCanDelete = opts.botCanDelete;
    if (opts.botStanding !== undefined) chat.botStanding = opts.botStanding;
    if (opts.forum && !chat.forum) {
      chat.forum = { topics: new Map(), generalClosed: false };
      chat.nextMessageId = Math.max(chat.nextMessageId, 2); // 1 is General's
    }
    if (opts.languageCode !== undefined) languages.set(id, opts.languageCode);
    return chat;
  }
  const languages = new Map<number, string>();
  const dropped: Update[] = [];

  function senderOf(chatId: number, opts: SendOptions) {
    const spec: UserSpec = opts.from ?? { id: chatId > 0 ? chatId : Math.abs(chatId) + 1 };
    const lang = opts.languageCode ?? spec.languageCode ?? languages.get(spec.id);
    return makeUser({ ...spec, ...(lang ? { languageCode: lang } : {}) });
  }

  function userMessage(
    chatId: number,
    opts: SendOptions,
    fields: { text?: string; document?: Message["document"]; photo?: Message["photo"]; caption?: string },
  ): Update {
    const chat = addChat(chatId);
    const from = senderOf(chatId, opts);
    const threadId = opts.threadId;
    if (threadId !== undefined && !chat.forum?.topics.has(threadId)) throw new Error(`chat ${chatId} has no forum topic ${threadId}`);
    const message = makeMessage({
      messageId: chat.nextMessageId++,
      chat: makeChat(chat, from),
      from,
      ...fields,
      ...(threadId === undefined ? {} : { threadId }),
    });
    chat.messages.set(message.message_id, {
      messageId: message.message_id,
      chatId,
      from: "user",
      text: fields.text ?? fields.caption ?? "",
      rawText: fields.text ?? "",
      parseMode: undefined,
      buttons: [],
      markup: undefined,
      deleted: false,
      edits: 0,
      seq: ++seq,
      date: message.date,
      ...(threadId === undefined ? {} : { threadId }),
    });
    return messageUpdate(nextUpdateId++, message);
  }
  const groups = createGroupTools({ core, addChat, senderOf, userMessage, nextUpdateId: () => nextUpdateId++, nextSeq: () => ++seq });

  function visible(chatId: number): StoredMessage[] {
    const chat = core.chats.get(chatId);
    if (!chat) return [];
    return [...chat.messages.values()].filter((m) => !m.deleted).sort((a, b) => a.messageId - b.messageId);
  }

  function botMessages(chatId: number): StoredMessage[] {
    return visible(chatId).filter((m) => m.from === "bot");
  }

  /** A pressed message as Telegram sends it back: a photo or a document carries its text as the caption. */
  const asPressed = (message: Message, m: StoredMessage): Message => {
    if (!m.photo && !m.document) return message;
    const { text: caption, ...rest } = message;
    return {
      ...rest,
      ...(caption ? { caption } : {}),
      ...(m.photo ? { photo: [{ file_id: m.photo.fileId, file_unique_id: `u${m.photo.fileId}`, width: 300, height: 300 }] } : {}),
      ...(m.document ? { document: { file_id: m.document.fileId, file_unique_id: `u${m.document.fileId}`, file_name: m.document.fileName } } : {}),
    };
  };

  const matches = (b: Button, label: string | RegExp) => (typeof label === "string" ? b.text === label || b.callback_data === label : label.test(b.text));

  return {
    token,
    botInfo,
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    /** Calls of one method (case-insensitive), in order. */
    callsOf: (method: string) => calls.filter((c) => c.method.toLowerCase() === method.toLowerCase()),
    /** Calls Telegram refused; a well-behaved bot leaves this empty. */
    failedCalls: () => calls.filter((c) => !c.ok),
    addChat,
    blockChat: (chatId: number, blocked = true) => {
      addChat(chatId).blocked = blocked;
    },
    /** The user blocks (or unblocks) the bot: sends fail with 403 and Telegram reports it as my_chat_member. */
    blockedByUser: (chatId: number, blocked = true): Update => {
      const chat = addChat(chatId);
      chat.blocked = blocked;
      const from = senderOf(chatId, {});
      return myChatMemberUpdate(nextUpdateId++, {
        chat: makeChat(chat, from),
        from,
        bot: { id: botInfo.id, is_bot: true, first_name: botInfo.first_name, username: botInfo.username },
        oldStatus: blocked ? "member" : "kicked",
        newStatus: blocked ? "kicked" : "member",
      });
    },
    setRateLimits,
    /** Arms a fault for the next `times` (default 1) calls of a method. */
    injectFault: (fault: TelegramFault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    /** Registered commands per scope type and language ("" = no language); a chat scope is "chat:<id>". */
    commands: (languageCode = "", scope = "default") => core.commands.get(`${scope}:${languageCode}`) as { command: string; description: string }[] | undefined,
    webhook: () => ({ ...core.webhook }),
    /** A user sends a text (commands get bot_command entities). */
    text: (chatId: number, text: string, opts: SendOptions = {}) => userMessage(chatId, opts, { text }),
    /** A user uploads a document; the bot can getFile and download it. */
    document: (chatId: number, doc: { bytes: Buffer | string; fileName: string; mimeType?: string; caption?: string }, opts: SendOptions = {}) => {
      const bytes = typeof doc.bytes === "string" ? Buffer.from(doc.bytes) : doc.bytes;
      const f = core.addFile(bytes, doc.fileName, doc.mimeType);
      return userMessage(chatId, opts, {
        document: {
          file_id: f.fileId,
          file_unique_id: f.fileUniqueId,
          file_name: doc.fileName,
          file_size: bytes.length,
          ...(doc.mimeType ? { mime_type: doc.mimeType } : {}),
        },
        ...(doc.caption ? { caption: doc.caption } : {}),
      });
    },
    /** A user taps a button (by text, callback data, or a regexp on the text) on the newest bot message showing it. */
    press: (chatId: number, label: string | RegExp, opts: SendOptions & { messageId?: number } = {}): Update => {
      const chat = addChat(chatId);
      const candidates = botMessages(chatId)
        .filter((m) => opts.messageId === undefined || m.messageId === opts.messageId)
        .reverse();
      for (const m of candidates) {
        const button = m.buttons.flat().find((b) => matches(b, label));
        if (!button) continue;
        if (button.callback_data === undefined) throw new Error(`button "${button.text}" is not a callback button`);
        const id = String(nextQueryId++);
        core.queries.set(id, { kind: "callback", answered: false });
        const from = senderOf(chatId, opts);
        const shown = (shownMessage: StoredMessage): Message =>
          ({
            ...asPressed(
              makeMessage({
                messageId: shownMessage.messageId,
                chat: makeChat(chat, from),
                from: shownMessage.from === "bot" ? { ...botInfo } : from,
                text: shownMessage.text,
              }),
              shownMessage,
            ),
            ...(shownMessage.markup ? { reply_markup: shownMessage.markup } : {}),
          }) as Message;
        // As Telegram does: the message a pressed one replies to comes with it (without its own reply).
        const repliedTo = m.replyTo === undefined ? undefined : chat.messages.get(m.replyTo);
        const message = {
          ...shown(m),
          ...(repliedTo && !repliedTo.deleted ? { reply_to_message: shown(repliedTo) } : {}),
        } as Message;
        return callbackQueryUpdate(nextUpdateId++, { id, from, message, data: button.callback_data });
      }
      throw new Error(`no visible bot message in chat ${chatId} has a button ${String(label)}`);
    },
    /** A callback query with arbitrary data on a given bot message (stale or forged buttons). */
    rawCallback: (chatId: number, messageId: number, data: string, opts: SendOptions = {}): Update => {
      const chat = addChat(chatId);
      const id = String(nextQueryId++);
      core.queries.set(id, { kind: "callback", answered: false });
      const from = senderOf(chatId, opts);
      const stored = chat.messages.get(messageId);
      const message = makeMessage({ messageId, chat: makeChat(chat, from), from: { ...botInfo }, text: stored?.text ?? "" });
      return callbackQueryUpdate(nextUpdateId++, { id, from, message, data });
    },
    /** An inline query from a user (not tied to a chat). */
    inlineQuery: (userId: number, query: string, opts: { languageCode?: string } = {}): Update => {
      const id = String(nextQueryId++);
      core.queries.set(id, { kind: "inline", answered: false });
      const from = makeUser({
        id: userId,
        ...((opts.languageCode ?? languages.get(userId)) ? { languageCode: opts.languageCode ?? languages.get(userId)! } : {}),
      });
      return inlineQueryUpdate(nextUpdateId++, { id, from, query, chatType: "sender" });
    },
    /** Ids of callback queries the bot never answered: the user's button is still spinning. */
    unansweredCallbacks: (): string[] => [...core.queries].filter(([, q]) => q.kind === "callback" && !q.answered).map(([id]) => id),
    /** The bot's answer to a callback or inline query (undefined while unanswered). */
    answerOf: (update: Update): PendingQuery["answer"] => {
      const id = update.callback_query?.id ?? update.inline_query?.id;
      return id === undefined ? undefined : core.queries.get(id)?.answer;
    },
    ...groups,
    /**
     * Queues an update for getUpdates (polling tests), unless the remembered
     * `allowed_updates` excludes its type: Telegram never creates it then
     * (false, and it is listed in `droppedUpdates`).
     */
    enqueue: (update: Update): boolean => {
      if (!isAllowedUpdate(core.allowedUpdates, update)) {
        dropped.push(update);
        return false;
      }
      core.updates.push(update);
      for (const w of [...updateWaiters]) w();
      return true;
    },
    /** Updates `enqueue` dropped because of `allowed_updates`. */
    droppedUpdates: (): readonly Update[] => dropped,
    /** The `allowed_updates` list Telegram remembers (undefined: never given). */
    allowedUpdates: () => core.allowedUpdates,
    pendingUpdates: () => core.updates.length,
    /** Whether a getUpdates long poll is waiting right now. */
    longPollWaiting: () => core.pendingPoll !== undefined,
    /** What the user sees: live messages in order, after edits and deletes. */
    view: visible,
    botMessages,
    lastBotMessage: (chatId: number): StoredMessage | undefined => botMessages(chatId).at(-1),
    /** Every message ever stored in a chat, deleted ones included. */
    history: (chatId: number) => [...(core.chats.get(chatId)?.messages.values() ?? [])],
    file: (fileId: string) => core.files.get(fileId),
    /** Resolves with the next bot message sent to the chat after this call; rejects after the deadline. */
    waitForBotMessage: (chatId: number, timeoutMs = 5000, predicate: (m: StoredMessage) => boolean = () => true) =>
      waitOn(listeners, chatId, timeoutMs, predicate, "no bot message"),
    /** As `waitForBotMessage`, for a message sent or a text edited in place (a flow that stays one card). */
    waitForBotText: (chatId: number, timeoutMs = 5000, predicate: (m: StoredMessage) => boolean = () => true) =>
      waitOn(shownListeners, chatId, timeoutMs, predicate, "no bot message or edit"),
    close: async () => {
      for (const w of [...updateWaiters]) w();
      // Closed to new connections first: one opened between the two calls would keep close() waiting for good.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
