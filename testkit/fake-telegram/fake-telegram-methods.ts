/** Bot API methods of the fake server, each validating its parameters as Telegram does. */
import type { Message, Update, UserFromGetMe } from "grammy/types";
import { isWebAppUrl, markupKey, parseMarkup, parseText } from "./fake-telegram-format.js";
import type { UploadedFile } from "./fake-telegram-http.js";
import { boolParam, intParam, jsonParam } from "./fake-telegram-http.js";
import { TelegramError } from "./fake-telegram-errors.js";
import { allowedUpdatesParam, placeOf } from "./fake-telegram-places.js";
import type { FakeChatState, RateLimiter, StoredFile, StoredMessage } from "./fake-telegram-state.js";

export { TelegramError };

export interface PendingQuery {
  kind: "callback" | "inline";
  answered: boolean;
  answer?: Record<string, unknown>;
}

export interface FakeCore {
  token: string;
  botInfo: UserFromGetMe;
  chats: Map<number, FakeChatState>;
  files: Map<string, StoredFile>;
  queries: Map<string, PendingQuery>;
  commands: Map<string, unknown>;
  webhook: { url: string; secretToken?: string | undefined };
  /** The last `allowed_updates` given to getUpdates/setWebhook (undefined or []: Telegram's default). */
  allowedUpdates: string[] | undefined;
  updates: Update[];
  rate: RateLimiter | undefined;
  /** The clock the rate limits are judged by. */
  now(): number;
  nextSeq(): number;
  addFile(bytes: Buffer, fileName: string, mimeType?: string): StoredFile;
  /** Called after a bot message is stored (waiters). */
  onBotMessage(message: StoredMessage): void;
  /** Called after a bot message's text was edited (waiters for what the chat shows). */
  onBotTextEdit(message: StoredMessage): void;
  /** Resolves when an update is enqueued, the timeout passes or `signal` aborts. */
  waitForUpdates(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** The long poll now waiting, if any: a newer getUpdates supersedes it (409) as Telegram does. */
  pendingPoll: { supersede(): void } | undefined;
}

type Params = Record<string, unknown>;
/** `signal` aborts when the client disconnects before the answer is sent. */
type Method = (p: Params, files: Map<string, UploadedFile>, signal: AbortSignal) => unknown;

const CONFLICT_OTHER_POLL = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";

const bad = (description: string) => new TelegramError(400, `Bad Request: ${description}`);
const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

/** The bot as a group admin that may delete messages (what `botCanDelete` stands for). */
export const BOT_ADMIN_RIGHTS = {
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: false,
  can_restrict_members: false,
  can_promote_members: false,
  can_change_info: false,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
} as const;

/** A restricted member that may send nothing (ChatMemberRestricted's permissions). */
const NO_SEND_RIGHTS = {
  can_send_messages: false,
  can_send_audios: false,
  can_send_documents: false,
  can_send_photos: false,
  can_send_videos: false,
  can_send_video_notes: false,
  can_send_voice_notes: false,
  can_send_polls: false,
  can_send_other_messages: false,
  can_add_web_page_previews: false,
  can_change_info: false,
  can_invite_users: false,
  can_pin_messages: false,
  can_manage_topics: false,
} as const;

/** Commands are stored per scope type and language: "all_private_chats:ru", "default:". */
export function commandsKey(p: Record<string, unknown>): string {
  const scope = jsonParam(p["scope"]) as { type?: unknown; chat_id?: unknown } | undefined;
  const lang = typeof p["language_code"] === "string" ? p["language_code"] : "";
  const type = typeof scope?.type === "string" ? scope.type : "default";
  // Chat scopes are per chat: "chat:1001:ru".
  const chatId = intParam(scope?.chat_id) ?? (typeof scope?.chat_id === "string" ? scope.chat_id : undefined);
  const chat = type.startsWith("chat") && chatId !== undefined ? `:${chatId}` : "";
  return `${type}${chat}:${lang}`;
}

export function createMethods(core: FakeCore): Record<string, Method> {
  const menuButtons = new Map<string, Record<string, unknown> | undefined>();
  function chatOf(p: Params): FakeChatState {
    const id = intParam(p["chat_id"]);
    if (id === undefined) throw bad("chat_id is empty");
    const chat = core.chats.get(id);
    if (!chat) throw bad("chat not found");
    if (chat.blocked) {
      throw new TelegramError(403, chat.type === "private" ? "Forbidden: bot was blocked by the user" : "Forbidden: bot was kicked from the group chat");
    }
    return chat;
  }

  function limit(chat: FakeChatState): void {
    if (!core.rate) return;
    const wait = core.rate.take(chat.id, chat.type !== "private", core.now());
    if (wait > 0) throw new TelegramError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
  }

  function formatted(text: unknown, parseMode: unknown, max: number, what: "message text" | "caption") {
    if (typeof text !== "string" || text.length === 0) {
      if (what === "caption") return { raw: "", plain: "" };
      throw bad("message text is empty");
    }
    const parsed = parseText(text, parseMode);
    if (!parsed.ok) throw new TelegramError(400, parsed.description);
    if (what === "message text" && parsed.plain.trim().length === 0) throw bad("message text is empty");
    if (parsed.plain.length > max) throw bad(what === "caption" ? "message caption is too long" : "message is too long");
    return { raw: text, plain: parsed.plain };
  }

  function markupOf(raw: unknown, chat?: FakeChatState) {
    const m = parseMarkup(raw);
    if (!m.ok) throw new TelegramError(400, m.description);
    // Telegram opens a web_app inline button only in a private chat: a group's message refuses one.
    if (chat !== undefined && chat.type !== "private" && m.rows.flat().some((b) => (b as { web_app?: unknown }).web_app !== undefined))
      throw new TelegramError(400, "Bad Request: BUTTON_TYPE_INVALID");
    return m;
  }

  function toMessage(chat: FakeChatState, m: StoredMessage): Message {
    const base: Record<string, unknown> = {
      message_id: m.messageId,
      date: m.date,
      chat:
        chat.type === "private"
          ? { id: chat.id, type: "private", first_name: `User${chat.id}` }
          : { id: chat.id, type: chat.type, title: chat.title ?? "Group", ...(chat.forum ? { is_forum: true } : {}) },
      // A channel post is signed by the channel, not by the bot.
      ...(chat.type === "channel"
        ? { sender_chat: { id: chat.id, type: "channel", title: chat.title ?? "Channel" } }
        : { from: { id: core.botInfo.id, is_bot: true, first_name: core.botInfo.first_name, username: core.botInfo.username } }),
    };
    if (m.threadId !== undefined) Object.assign(base, { message_thread_id: m.threadId, is_topic_message: true });
    if (m.edits > 0) base["edit_date"] = m.date;
    if (m.markup && typeof m.markup === "object" && "inline_keyboard" in m.markup) base["reply_markup"] = m.markup;
    if (m.photo) base["photo"] = [{ file_id: m.photo.fileId, file_unique_id: `u${m.photo.fileId}`, width: 300, height: 300 }];
    if (m.document) base["document"] = { file_id: m.document.fileId, file_unique_id: `u${m.document.fileId}`, file_name: m.document.fileName };
    if (m.photo || m.document) {
      if (m.text) base["caption"] = m.text;
    } else base["text"] = m.text;
    return base as unknown as Message;
  }

  function store(chat: FakeChatState, fields: Omit<StoredMessage, "messageId" | "chatId" | "deleted" | "edits" | "seq" | "date" | "from">): StoredMessage {
    const m: StoredMessage = {
      ...fields,
      messageId: chat.nextMessageId++,
      chatId: chat.id,
      from: "bot",
      deleted: false,
      edits: 0,
      seq: core.nextSeq(),
      date: Math.floor(Date.now() / 1000),
    };
    chat.messages.set(m.messageId, m);
    core.onBotMessage(m);
    return m;
  }

  /**
   * The message a send replies to (`reply_parameters`, or the older `reply_to_message_id`): one that is
   * gone is refused unless `allow_sending_without_reply`, which then sends it as a message of its own.
   */
  function replyOf(chat: FakeChatState, p: Params): { replyTo?: number } {
    const given = jsonParam(p["reply_parameters"]) as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
    const id = intParam(given?.message_id) ?? intParam(p["reply_to_message_id"]);
    if (id === undefined) return {};
    const target = chat.messages.get(id);
    if (target && !target.deleted) return { replyTo: id };
    if (given?.allow_sending_without_reply === true || p["allow_sending_without_reply"] === true) return {};
    throw bad("message to be replied not found");
  }

  function liveMessage(chat: FakeChatState, p: Params, action: "edit" | "delete"): StoredMessage {
    const id = intParam(p["message_id"]);
    const m = id === undefined ? undefined : chat.messages.get(id);
    if (!m || m.deleted) throw bad(action === "edit" ? "message to edit not found" : "message to delete not found");
    return m;
  }

  function media(p: Params, files: Map<string, UploadedFile>, field: "photo" | "document"): { fileId: string; fileName: string; bytes: Buffer | undefined } {
    const value = p[field];
    if (typeof value !== "string" || value.length === 0) throw bad(`there is no ${field} in the request`);
    if (value.startsWith("attach://")) {
      const upload = files.get(value.slice("attach://".length));
      if (!upload) throw bad(`wrong HTTP URL specified`);
      if (upload.bytes.length === 0) throw bad(`file must be non-empty`);
      const f = core.addFile(upload.bytes, upload.filename);
      return { fileId: f.fileId, fileName: upload.filename, bytes: upload.bytes };
    }
    const known = core.files.get(value);
    if (known) return { fileId: known.fileId, fileName: known.fileName, bytes: known.bytes };
    if (/^https?:\/\//.test(value)) return { fileId: `url:${value}`, fileName: value, bytes: undefined };
    throw bad("wrong file identifier/HTTP URL specified");
  }

  function sendMedia(p: Params, files: Map<string, UploadedFile>, field: "photo" | "document") {
    const chat = chatOf(p);
    const threadId = placeOf(chat, p, field === "photo" ? "photos" : "documents");
    const file = media(p, files, field);
    const caption = formatted(p["caption"], p["parse_mode"], 1024, "caption");
    const markup = markupOf(jsonParam(p["reply_markup"]), chat);
    const reply = replyOf(chat, p);
    limit(chat);
    const m = store(chat, {
      ...reply,
      text: caption.plain,
      rawText: caption.raw,
      parseMode: typeof p["parse_mode"] === "string" ? p["parse_mode"] : undefined,
      buttons: markup.rows,
      markup: markup.markup,
      ...(threadId === undefined ? {} : { threadId }),
      ...(field === "photo" ? { photo: { fileId: file.fileId, bytes: file.bytes } } : { document: file }),
    });
    return toMessage(chat, m);
  }

  function answerQuery(id: unknown, kind: PendingQuery["kind"]): PendingQuery {
    const q = typeof id === "string" ? core.queries.get(id) : undefined;
    if (!q || q.kind !== kind || q.answered) throw bad("query is too old and response timeout expired or query ID is invalid");
    q.answered = true;
    return q;
  }

  return {
    getme: () => core.botInfo,
    getupdates: async (p, _files, signal) => {
      if (core.webhook.url)
        throw new TelegramError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
      // Remembered for the updates created from now on (Telegram: earlier ones may still arrive).
      const allowed = allowedUpdatesParam(p["allowed_updates"]);
      if (allowed !== undefined) core.allowedUpdates = allowed;
      // Telegram serves the newest poll and ends the older one with 409 (a restarted bot is not locked out).
      core.pendingPoll?.supersede();
      const offset = intParam(p["offset"]);
      if (offset !== undefined) {
        while (core.updates.length > 0 && core.updates[0]!.update_id < offset) core.updates.shift();
      }
      const timeout = Math.min(intParam(p["timeout"]) ?? 0, 50);
      const limitCount = Math.min(Math.max(intParam(p["limit"]) ?? 100, 1), 100);
      if (core.updates.length === 0 && timeout > 0) {
        const stop = new AbortController();
        let superseded = false;
        const poll = {
          supersede: () => {
            superseded = true;
            stop.abort();
          },
        };
        const onClientGone = () => stop.abort();
        signal.addEventListener("abort", onClientGone, { once: true });
        core.pendingPoll = poll;
        try {
          await core.waitForUpdates(timeout * 1000, stop.signal);
        } finally {
          signal.removeEventListener("abort", onClientGone);
          if (core.pendingPoll === poll) core.pendingPoll = undefined;
        }
        if (superseded) throw new TelegramError(409, CONFLICT_OTHER_POLL);
      }
      return core.updates.slice(0, limitCount);
    },
    setmycommands: (p) => {
      const commands = jsonParam(p["commands"]);
      if (!Array.isArray(commands) || commands.length > 100) throw bad("commands must be an array of at most 100 BotCommand");
      for (const c of commands as { command?: unknown; description?: unknown }[]) {
        if (typeof c.command !== "string" || !/^[a-z0-9_]{1,32}$/.test(c.command)) throw bad("BOT_COMMAND_INVALID");
        if (typeof c.description !== "string" || c.description.length < 1 || c.description.length > 256) throw bad("BOT_COMMAND_DESCRIPTION_INVALID");
      }
      const lang = typeof p["language_code"] === "string" ? p["language_code"] : "";
      if (lang && !/^[a-z]{2}$/.test(lang)) throw bad("invalid language code specified");
      core.commands.set(commandsKey(p), commands);
      return true;
    },
    getmycommands: (p) => core.commands.get(commandsKey(p)) ?? [],
    // The menu button: per private chat, else the default one (Telegram's own: the command list).
    setchatmenubutton: (p) => {
      const button = (jsonParam(p["menu_button"]) ?? { type: "default" }) as Record<string, unknown>;
      if (button["type"] === "web_app") {
        const webApp = button["web_app"] as { url?: unknown } | undefined;
        if (typeof button["text"] !== "string" || button["text"].length === 0) throw bad("can't parse menu button: text is empty");
        if (!isWebAppUrl(webApp?.url)) throw bad("Only HTTPS links are allowed");
      } else if (button["type"] !== "commands" && button["type"] !== "default") throw bad("can't parse menu button: unsupported type");
      const chatId = p["chat_id"] === undefined ? "default" : String(chatOf(p).id);
      menuButtons.set(chatId, button["type"] === "default" ? undefined : button);
      return true;
    },
    getchatmenubutton: (p) => {
      const chatId = p["chat_id"] === undefined ? "default" : String(chatOf(p).id);
      return menuButtons.get(chatId) ?? menuButtons.get("default") ?? { type: "commands" };
    },
    deletemycommands: (p) => core.commands.delete(commandsKey(p)) || true,
    sendmessage: (p) => {
      const chat = chatOf(p);
      const threadId = placeOf(chat, p, "text messages");
      const text = formatted(p["text"], p["parse_mode"], 4096, "message text");
      const markup = markupOf(jsonParam(p["reply_markup"]), chat);
      const reply = replyOf(chat, p);
      limit(chat);
      const m = store(chat, {
        ...reply,
        text: text.plain,
        rawText: text.raw,
        parseMode: typeof p["parse_mode"] === "string" ? p["parse_mode"] : undefined,
        buttons: markup.rows,
        markup: markup.markup,
        ...(threadId === undefined ? {} : { threadId }),
      });
      return toMessage(chat, m);
    },
    editmessagetext: (p) => {
      if (p["inline_message_id"] !== undefined) return true;
      const chat = chatOf(p);
      const m = liveMessage(chat, p, "edit");
      if (m.from !== "bot") throw bad("message can't be edited");
      if (m.photo || m.document) throw bad("there is no text in the message to edit");
      const text = formatted(p["text"], p["parse_mode"], 4096, "message text");
      const markup = markupOf(jsonParam(p["reply_markup"]), chat);
      if (text.raw === m.rawText && markupKey(markup.markup) === markupKey(m.markup)) throw bad(NOT_MODIFIED);
      Object.assign(m, { text: text.plain, rawText: text.raw, parseMode: p["parse_mode"], buttons: markup.rows, markup: markup.markup, edits: m.edits + 1 });
      core.onBotTextEdit(m);
      return toMessage(chat, m);
    },
    editmessagecaption: (p) => {
      if (p["inline_message_id"] !== undefined) return true;
      const chat = chatOf(p);
      const m = liveMessage(chat, p, "edit");
      if (m.from !== "bot") throw bad("message can't be edited");
      if (!m.photo && !m.document) throw bad("there is no caption in the message to edit");
      const caption = formatted(p["caption"] ?? "", p["parse_mode"], 1024, "caption");
      const markup = markupOf(jsonParam(p["reply_markup"]), chat);
      if (caption.raw === m.rawText && markupKey(markup.markup) === markupKey(m.markup)) throw bad(NOT_MODIFIED);
      Object.assign(m, {
        text: caption.plain,
        rawText: caption.raw,
        parseMode: p["parse_mode"],
        buttons: markup.rows,
        markup: markup.markup,
        edits: m.edits + 1,
      });
      return toMessage(chat, m);
    },
    // Only a photo or document message can take new media, as Telegram has it; a text message cannot become one.
    editmessagemedia: (p, files) => {
      if (p["inline_message_id"] !== undefined) return true;
      const chat = chatOf(p);
      const m = liveMessage(chat, p, "edit");
      if (m.from !== "bot") throw bad("message can't be edited");
      if (!m.photo && !m.document) throw bad("there is no media in the message to edit");
      const input = jsonParam(p["media"]) as Record<string, unknown> | undefined;
      const type = input?.["type"];
      if (type !== "photo" && type !== "document") throw bad("can't parse InputMedia: media type is not supported");
      const file = media({ [type]: input?.["media"] }, files, type);
      const caption = formatted(input?.["caption"] ?? "", input?.["parse_mode"], 1024, "caption");
      const markup = markupOf(jsonParam(p["reply_markup"]), chat);
      Object.assign(m, {
        text: caption.plain,
        rawText: caption.raw,
        parseMode: input?.["parse_mode"],
        buttons: markup.rows,
        markup: markup.markup,
        photo: type === "photo" ? { fileId: file.fileId, bytes: file.bytes } : undefined,
        document: type === "document" ? file : undefined,
        edits: m.edits + 1,
      });
      return toMessage(chat, m);
    },
    editmessagereplymarkup: (p) => {
      if (p["inline_message_id"] !== undefined) return true;
      const chat = chatOf(p);
      const m = liveMessage(chat, p, "edit");
      if (m.from !== "bot") throw bad("message can't be edited");
      const markup = markupOf(jsonParam(p["reply_markup"]), chat);
      if (markupKey(markup.markup) === markupKey(m.markup)) throw bad(NOT_MODIFIED);
      Object.assign(m, { buttons: markup.rows, markup: markup.markup, edits: m.edits + 1 });
      return toMessage(chat, m);
    },
    deletemessage: (p) => {
      const chat = chatOf(p);
      const m = liveMessage(chat, p, "delete");
      if (m.from === "user" && chat.type !== "private" && !chat.botCanDelete) throw bad("message can't be deleted");
      m.deleted = true;
      return true;
    },
    answercallbackquery: (p) => {
      if (typeof p["text"] === "string" && p["text"].length > 200) throw bad("MESSAGE_TOO_LONG");
      const q = answerQuery(p["callback_query_id"], "callback");
      q.answer = { ...p };
      return true;
    },
    answerinlinequery: (p) => {
      const results = jsonParam(p["results"]);
      if (!Array.isArray(results)) throw bad("results must be an array");
      if (results.length > 50) throw bad("RESULTS_TOO_MUCH");
      const ids = new Set<string>();
      for (const r of results as Record<string, unknown>[]) {
        if (typeof r["id"] !== "string" || Buffer.byteLength(r["id"]) < 1 || Buffer.byteLength(r["id"]) > 64) throw bad("RESULT_ID_INVALID");
        if (ids.has(r["id"])) throw bad("RESULT_ID_DUPLICATE");
        ids.add(r["id"]);
        if (r["type"] === "article") {
          if (typeof r["title"] !== "string" || r["title"].length === 0) throw bad("RESULT_TITLE_EMPTY");
          const content = r["input_message_content"] as Record<string, unknown> | undefined;
          if (!content) throw bad("input_message_content is required");
          formatted(content["message_text"], content["parse_mode"], 4096, "message text");
        }
        markupOf(r["reply_markup"]);
      }
      const button = jsonParam(p["button"]) as Record<string, unknown> | undefined;
      if (button !== undefined) {
        if (typeof button["text"] !== "string" || button["text"].length === 0) throw bad("BUTTON_TEXT_INVALID");
        const sp = button["start_parameter"];
        if (sp !== undefined && (typeof sp !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(sp))) throw bad("START_PARAM_INVALID");
      }
      const q = answerQuery(p["inline_query_id"], "inline");
      q.answer = { ...p, results, button };
      return true;
    },
    getchatmember: (p) => {
      const chat = chatOf(p);
      const userId = intParam(p["user_id"]);
      if (userId === undefined) throw bad("user_id is empty");
      const botUser = { id: core.botInfo.id, is_bot: true, first_name: core.botInfo.first_name, username: core.botInfo.username };
      if (userId !== core.botInfo.id) return { status: "member", user: { id: userId, is_bot: false, first_name: `User${userId}` } };
      if (chat.botStanding === "left") return { status: "left", user: botUser };
      if (chat.botStanding === "restricted") return { status: "restricted", user: botUser, is_member: true, until_date: 0, ...NO_SEND_RIGHTS };
      if (chat.type === "channel" && chat.botStanding === "administrator")
        return { status: "administrator", user: botUser, ...BOT_ADMIN_RIGHTS, can_post_messages: true };
      if (chat.type === "private" || !chat.botCanDelete) return { status: "member", user: botUser };
      return { status: "administrator", user: botUser, ...BOT_ADMIN_RIGHTS };
    },
    sendphoto: (p, files) => sendMedia(p, files, "photo"),
    senddocument: (p, files) => sendMedia(p, files, "document"),
    getfile: (p) => {
      const f = typeof p["file_id"] === "string" ? core.files.get(p["file_id"]) : undefined;
      if (!f) throw bad("invalid file_id");
      return { file_id: f.fileId, file_unique_id: f.fileUniqueId, file_size: f.bytes.length, file_path: f.path };
    },
    sendchataction: (p) => {
      chatOf(p);
      if (typeof p["action"] !== "string" || !CHAT_ACTIONS.has(p["action"])) throw bad("wrong parameter action in request");
      return true;
    },
    setwebhook: (p) => {
      const url = typeof p["url"] === "string" ? p["url"] : "";
      if (url && !/^https:\/\//.test(url)) throw bad("bad webhook: An HTTPS URL must be provided for webhook");
      const secret = typeof p["secret_token"] === "string" ? p["secret_token"] : undefined;
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw bad("bad webhook: secret token contains unallowed characters");
      const allowed = allowedUpdatesParam(p["allowed_updates"]);
      if (allowed !== undefined) core.allowedUpdates = allowed;
      core.webhook = { url, secretToken: secret };
      if (boolParam(p["drop_pending_updates"])) core.updates.length = 0;
      return true;
    },
    deletewebhook: (p) => {
      core.webhook = { url: "" };
      if (boolParam(p["drop_pending_updates"])) core.updates.length = 0;
      return true;
    },
    getwebhookinfo: () => ({ url: core.webhook.url, has_custom_certificate: false, pending_update_count: core.webhook.url ? core.updates.length : 0 }),
  };
}
