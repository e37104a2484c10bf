/**
 * The sandbox's loopback control API: act as Telegram users against the real
 * bot (which polls the fake Bot API through the front) and read what a chat
 * shows. Every action answers with the messages it caused (new, edited,
 * deleted), the callback/inline answer, and any call Telegram refused.
 * scripts/tg-user.ts is the CLI over it; docs/sandbox.md lists the routes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join, resolve } from "node:path";
import type { Update } from "grammy/types";
import type { Simulator } from "../../testkit/simulator/index.js";
import type { FakeTelegram, StoredMessage } from "../../testkit/fake-telegram/fake-telegram.js";
import { changedSince, renderMessage, snapshot, toRendered, type MessageSnapshot } from "./render-chat.js";
import type { TelegramFront } from "../../testkit/telegram-front.js";
import { signTx } from "./sandbox-tx.js";

export interface SandboxAccounts {
  [name: string]: { accountId: string; apiKey: string; webhookSecret: string };
}

export interface ControlDeps {
  tg: FakeTelegram;
  front: TelegramFront;
  sim: Simulator;
  accounts: SandboxAccounts;
  mediaDir: string;
  /** Text for GET /info (the env to run the bot with, keys). */
  info: () => Record<string, unknown>;
  port?: number;
  /** How long the bot must stay silent before an action counts as answered (ms). */
  quietMs?: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const isGetUpdates = (method: string) => method.toLowerCase() === "getupdates";

export async function startControlServer(deps: ControlDeps): Promise<{ url: string; close(): Promise<void> }> {
  const { tg, front, sim } = deps;
  const quietMs = deps.quietMs ?? 800;
  mkdirSync(deps.mediaDir, { recursive: true });

  function mediaPath(m: StoredMessage): string | undefined {
    const file = m.photo ?? m.document;
    if (!file?.bytes) return undefined;
    const name = m.photo ? `chat${m.chatId}-msg${m.messageId}.png` : `chat${m.chatId}-msg${m.messageId}-${basename(m.document!.fileName)}`;
    const path = join(deps.mediaDir, name);
    writeFileSync(path, file.bytes);
    return path;
  }

  /** Waits until no Bot API call (other than getUpdates) came for quietMs, at most maxMs. */
  async function settle(maxMs: number, done?: () => boolean): Promise<void> {
    const started = Date.now();
    const deadline = started + maxMs;
    const count = () => tg.calls.filter((c) => !isGetUpdates(c.method)).length;
    let seen = count();
    let lastChange = started;
    while (Date.now() < deadline) {
      await sleep(50);
      const now = count();
      if (now !== seen) {
        seen = now;
        lastChange = Date.now();
      } else if (Date.now() - lastChange >= quietMs && done?.() === true) return;
      // A press the bot answers only after a slow service call (a broadcast) is not "never answered": give it up to 15 s.
      else if (Date.now() - lastChange >= quietMs * 3 && (done === undefined || Date.now() - started >= 15_000)) return;
    }
  }

  async function act(chatId: number | undefined, update: Update, done?: () => boolean): Promise<Json> {
    const before: ReturnType<typeof snapshot> = chatId === undefined ? new Map<number, MessageSnapshot>() : snapshot(tg.history(chatId));
    const callsBefore = tg.calls.length;
    front.enqueue(update);
    const fetched = await front.waitDelivered(update.update_id, 10_000);
    if (!fetched) {
      return {
        text: "The bot did not fetch this update within 10 s. Is `npm start` running with the sandbox environment? (The update stays queued.)",
        fetched: false,
      };
    }
    await settle(30_000, done);
    return report(chatId, before, callsBefore, update);
  }

  function report(chatId: number | undefined, before: ReturnType<typeof snapshot>, callsBefore: number, update?: Update): Json {
    const changes = chatId === undefined ? [] : changedSince(tg.history(chatId), before);
    const refused = tg.calls.slice(callsBefore).filter((c) => !c.ok && !isGetUpdates(c.method));
    const answer = update ? tg.answerOf(update) : undefined;
    const lines: string[] = [];
    for (const { message, note } of changes) lines.push(renderMessage(toRendered(message, mediaPath), note));
    if (update?.callback_query) {
      if (!answer) lines.push("(!) the button press was never answered (the button keeps spinning)");
      else if (typeof answer["text"] === "string") lines.push(`(${answer["show_alert"] ? "alert" : "toast"}) ${answer["text"]}`);
    }
    if (update?.inline_query) lines.push(renderInline(answer));
    for (const c of refused) lines.push(`(!) Telegram refused ${c.method}: ${String(c.errorCode ?? "")} ${c.description ?? ""}`);
    if (lines.length === 0) lines.push("(no visible change)");
    return {
      text: lines.join("\n\n"),
      changes: changes.map(({ message, note }) => ({ ...toRendered(message, mediaPath), note })),
      answer,
      refused,
    };
  }

  const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : (JSON.stringify(v) ?? ""));

  function renderInline(answer: Json | undefined): string {
    if (!answer) return "(!) the inline query was not answered";
    const results = (answer["results"] as Json[] | undefined) ?? [];
    const out = [
      `inline answer: ${results.length} result(s)${answer["cache_time"] !== undefined ? `, cache_time ${str(answer["cache_time"])}` : ""}${answer["is_personal"] ? ", personal" : ""}`,
    ];
    const button = answer["button"] as Json | undefined;
    if (button) out.push(`  button above results: [ ${str(button["text"])} ] -> start=${str(button["start_parameter"] ?? "")}`);
    results.forEach((r, i) => {
      out.push(`  ${i + 1}. ${str(r["title"] ?? r["type"])}${r["description"] ? ` — ${str(r["description"])}` : ""}`);
      const content = r["input_message_content"] as Json | undefined;
      if (content?.["message_text"]) out.push(`     sends: ${str(content["message_text"]).replace(/\n/g, "\n            ")}`);
      const markup = r["reply_markup"] as { inline_keyboard?: Json[][] } | undefined;
      for (const row of markup?.inline_keyboard ?? []) out.push(`     ${row.map((b) => `[ ${str(b["text"])} ]`).join(" ")}`);
    });
    return out.join("\n");
  }

  function view(chatId: number, all: boolean): Json {
    const messages = all ? tg.history(chatId).sort((a, b) => a.messageId - b.messageId) : tg.view(chatId);
    const rendered = messages.map((m) => toRendered(m, mediaPath));
    return { text: rendered.map((m) => renderMessage(m)).join("\n\n") || "(empty chat)", messages: rendered };
  }

  function findHookUrl(chatId: number): string {
    const re = /https?:\/\/[^\s]+\/hooks\/[A-Za-z0-9_-]{16,128}/g;
    const texts = tg.botMessages(chatId).map((m) => m.text);
    for (const t of texts.reverse()) {
      const found = t.match(re);
      if (found) return found.at(-1)!;
    }
    throw new HttpError(404, `no callback URL (…/hooks/<routeId>) in chat ${chatId}; send /webhook there first or pass the URL`);
  }

  function account(name: unknown): { accountId: string; apiKey: string; webhookSecret: string } {
    const key = typeof name === "string" && name !== "" ? name : "demo";
    const a = deps.accounts[key];
    if (!a) throw new HttpError(400, `unknown account "${key}"; known: ${Object.keys(deps.accounts).join(", ")}`);
    return a;
  }

  /** my_chat_member for leaving and private chats (groups joins use the fake's addedToGroup); borrows an update id from the fake (inline queries store nothing visible). */
  function memberUpdate(chatId: number, status: "member" | "left", fromId: number): Update {
    const slot = tg.inlineQuery(fromId, "");
    const chat = tg.addChat(chatId, chatId < 0 ? { type: "supergroup" } : {});
    const from = { id: fromId, is_bot: false, first_name: `User${fromId}` };
    const me = { id: tg.botInfo.id, is_bot: true, first_name: tg.botInfo.first_name, username: tg.botInfo.username };
    return {
      update_id: slot.update_id,
      my_chat_member: {
        chat:
          chat.type === "private"
            ? { id: chatId, type: "private", first_name: from.first_name }
            : { id: chatId, type: chat.type, title: chat.title ?? `Group ${chatId}` },
        from,
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { user: me, status: status === "member" ? "left" : "member" },
        new_chat_member: { user: me, status },
      },
    };
  }

  async function route(method: string, path: string, body: Json, query: URLSearchParams): Promise<Json> {
    const from =
      typeof body["from"] === "number" ? { from: { id: body["from"], ...(typeof body["lang"] === "string" ? { languageCode: body["lang"] } : {}) } } : {};
    const opts = { ...from, ...(typeof body["lang"] === "string" ? { languageCode: body["lang"] } : {}) };
    let m: RegExpExecArray | null;
    if (method === "GET" && path === "/info") return deps.info();
    if (method === "GET" && path === "/calls") {
      const failedOnly = query.get("failed") === "1";
      const last = Number(query.get("last") ?? 30);
      const calls = tg.calls.filter((c) => !isGetUpdates(c.method) && (!failedOnly || !c.ok)).slice(-last);
      return {
        text:
          calls.map((c) => `${c.ok ? "ok " : "ERR"} ${c.method} ${c.ok ? "" : `${String(c.errorCode ?? "")} ${c.description ?? ""}`}`).join("\n") || "(none)",
        calls,
      };
    }
    if ((m = /^\/chat\/(-?\d+)(?:\/(\w+))?$/.exec(path))) {
      const chatId = Number(m[1]);
      const action = m[2] ?? "";
      if (method === "GET" && action === "") return view(chatId, query.get("all") === "1");
      if (method !== "POST") throw new HttpError(405, "use POST");
      switch (action) {
        case "setup": {
          tg.addChat(chatId, {
            ...(body["type"] === "group" || body["type"] === "supergroup" || body["type"] === "private" ? { type: body["type"] } : {}),
            ...(typeof body["title"] === "string" ? { title: body["title"] } : {}),
            ...(typeof body["lang"] === "string" ? { languageCode: body["lang"] } : {}),
            ...(typeof body["botCanDelete"] === "boolean" ? { botCanDelete: body["botCanDelete"] } : {}),
          });
          return { text: `chat ${chatId} set up` };
        }
        case "send":
          if (typeof body["text"] !== "string") throw new HttpError(400, "text is required");
          return act(chatId, tg.text(chatId, body["text"], opts));
        case "press": {
          if (typeof body["label"] !== "string") throw new HttpError(400, "label is required");
          const where = { ...opts, ...(typeof body["messageId"] === "number" ? { messageId: body["messageId"] } : {}) };
          const escaped = body["label"].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          // Exact label first, then a case-insensitive part of it ("Русский" for "🇷🇺 Русский").
          const labels: (string | RegExp)[] = body["regex"] === true ? [new RegExp(body["label"], "i")] : [body["label"], new RegExp(escaped, "i")];
          let found: Update | undefined;
          let lastError: unknown;
          for (const label of labels) {
            try {
              found = tg.press(chatId, label, where);
              break;
            } catch (error) {
              lastError = error;
            }
          }
          if (!found) throw new HttpError(404, (lastError as Error).message);
          const update = found;
          if (body["twice"] === true) {
            // A double tap: the second press reaches the bot before the first one's edit removed the button.
            const again = tg.rawCallback(chatId, update.callback_query!.message!.message_id, update.callback_query!.data!, opts);
            front.enqueue(update);
            return act(chatId, again, () => tg.answerOf(update) !== undefined && tg.answerOf(again) !== undefined);
          }
          return act(chatId, update, () => tg.answerOf(update) !== undefined);
        }
        case "raw": {
          // Arbitrary callback data on a message: forged or long-gone buttons.
          if (typeof body["messageId"] !== "number" || typeof body["data"] !== "string") throw new HttpError(400, "messageId and data are required");
          const update = tg.rawCallback(chatId, body["messageId"], body["data"], opts);
          return act(chatId, update, () => tg.answerOf(update) !== undefined);
        }
        case "doc": {
          if (typeof body["path"] !== "string") throw new HttpError(400, "path is required");
          const file = resolve(body["path"]);
          const bytes = readFileSync(file);
          const fileName = typeof body["fileName"] === "string" ? body["fileName"] : basename(file);
          const mimeType = typeof body["mime"] === "string" ? body["mime"] : extname(fileName).toLowerCase() === ".json" ? "application/json" : "text/plain";
          return act(
            chatId,
            tg.document(chatId, { bytes, fileName, mimeType, ...(typeof body["caption"] === "string" ? { caption: body["caption"] } : {}) }, opts),
          );
        }
        case "photo":
          return act(chatId, tg.photo(chatId, typeof body["caption"] === "string" ? body["caption"] : undefined, opts));
        case "sticker": {
          // The fake has no sticker helper: a caption-less photo message whose photo becomes a sticker.
          const update = tg.photo(chatId, undefined, opts);
          const { photo: _photo, ...message } = update.message!;
          const sticker = {
            file_id: "CAAD-sandbox-sticker",
            file_unique_id: "AgAD-sandbox",
            type: "regular" as const,
            width: 512,
            height: 512,
            is_animated: false,
            is_video: false,
            emoji: "👍",
          };
          return act(chatId, { update_id: update.update_id, message: { ...message, sticker } });
        }
        case "join":
        case "leave": {
          const fromId = typeof body["from"] === "number" ? body["from"] : Math.abs(chatId) + 1;
          // A group set up with --can-delete gets the bot as an administrator with the delete right.
          if (action === "join" && chatId < 0) {
            const admin = tg.addChat(chatId).botCanDelete;
            return act(
              chatId,
              tg.addedToGroup(chatId, { from: { id: fromId, ...(typeof body["lang"] === "string" ? { languageCode: body["lang"] } : {}) }, admin }),
            );
          }
          return act(chatId, memberUpdate(chatId, action === "join" ? "member" : "left", fromId));
        }
        case "wait": {
          const before = snapshot(tg.history(chatId));
          const callsBefore = tg.calls.length;
          const deadline = Date.now() + (typeof body["seconds"] === "number" ? body["seconds"] : 15) * 1000;
          while (Date.now() < deadline && changedSince(tg.history(chatId), before).length === 0) await sleep(100);
          await settle(5_000);
          return report(chatId, before, callsBefore);
        }
        case "hook": {
          const url = typeof body["url"] === "string" ? body["url"] : findHookUrl(chatId);
          sim.setCallbackUrl(account(body["account"]).apiKey, url);
          return { text: `the simulator now posts webhooks for the ${typeof body["account"] === "string" ? body["account"] : "demo"} key to ${url}` };
        }
        default:
          throw new HttpError(404, `unknown action ${action}`);
      }
    }
    if ((m = /^\/user\/(\d+)\/inline$/.exec(path)) && method === "POST") {
      const userId = Number(m[1]);
      const update = tg.inlineQuery(
        userId,
        typeof body["query"] === "string" ? body["query"] : "",
        typeof body["lang"] === "string" ? { languageCode: body["lang"] } : {},
      );
      return act(undefined, update, () => tg.answerOf(update) !== undefined);
    }
    if (method === "POST" && path === "/tx") {
      const tx = signTx(body);
      return { text: JSON.stringify(tx, null, 2), tx };
    }
    if (method === "POST" && path === "/sim") return simControl(body);
    throw new HttpError(404, `no route ${method} ${path}`);
  }

  function simControl(body: Json): Json {
    switch (body["op"]) {
      case "credit": {
        const a = account(body["account"]);
        sim.credit(a.accountId, Number(body["sun"]));
        return { text: `credited ${String(body["sun"])} sun; balance now ${sim.balanceOf(a.accountId)} sun` };
      }
      case "balance": {
        const a = account(body["account"]);
        return { text: `${sim.balanceOf(a.accountId)} sun`, ledger: sim.ledger(a.accountId) };
      }
      case "outcome":
        sim.control.setBroadcastOutcome(typeof body["txId"] === "string" ? body["txId"] : "*", body["outcome"] as "confirmed" | "failed" | "expired");
        return { text: `broadcasts (${typeof body["txId"] === "string" ? body["txId"] : "all"}) now end ${String(body["outcome"])}` };
      case "pause":
        sim.control.pauseLifecycles(body["on"] === true);
        return { text: body["on"] === true ? "lifecycles paused" : "lifecycles resumed" };
      case "down":
        sim.faults.inject({ path: /.*/, kind: "reset", ...(typeof body["times"] === "number" ? { times: body["times"] } : {}) } as never);
        return { text: "the simulator drops every connection (sim up to clear)" };
      case "up":
        sim.faults.clear();
        return { text: "faults cleared" };
      case "hooks":
        return {
          text: sim.webhookDeliveries.map((d) => `${d.event} attempt ${d.attempt} -> ${String(d.status)} ${d.url}`).join("\n") || "(no webhook deliveries)",
        };
      default:
        throw new HttpError(400, "op must be credit, balance, outcome, pause, down, up or hooks");
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      let status = 200;
      let out: Json;
      try {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const raw = Buffer.concat(chunks).toString("utf8");
        const body = raw ? (JSON.parse(raw) as Json) : {};
        out = await route(req.method ?? "GET", url.pathname, body, url.searchParams);
      } catch (error) {
        status = error instanceof HttpError ? error.status : 500;
        out = { error: (error as Error).message };
      }
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(out, (_k, v: unknown) => (Buffer.isBuffer(v) ? `<${v.length} bytes>` : v)));
    })();
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(deps.port ?? 0, "127.0.0.1", () => resolveListen());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
