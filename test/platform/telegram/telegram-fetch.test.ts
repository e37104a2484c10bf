import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Api, GrammyError, HttpError, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTelegramFetch, type TelegramFetch } from "../../../src/platform/telegram/telegram-fetch.js";
import { startFakeTelegram, type FakeTelegram } from "../../../testkit/fake-telegram/fake-telegram.js";

const CHAT = 4_242;

describe("the Bot API client's HTTP over undici", () => {
  let tg: FakeTelegram;
  let http: TelegramFetch;
  let api: Api;

  beforeEach(async () => {
    tg = await startFakeTelegram();
    tg.addChat(CHAT);
    http = createTelegramFetch();
    api = new Api(tg.token, { apiRoot: tg.apiRoot, fetch: http.fetch as never });
  });
  afterEach(async () => {
    await http.close();
    await tg.close();
  });

  it("carries a call with its parameters and returns Telegram's result", async () => {
    const sent = await api.sendMessage(CHAT, "<b>hello</b>", { parse_mode: "HTML" });
    expect(sent.text).toBe("hello");
    expect(tg.callsOf("sendMessage")[0]?.params).toMatchObject({ chat_id: CHAT, text: "<b>hello</b>", parse_mode: "HTML" });
  });

  it("hands a refusal's JSON to grammY, which throws it with Telegram's code and description", async () => {
    tg.injectFault({ method: "sendMessage", kind: "refuse", code: 400, description: "Bad Request: message text is empty" });
    const error = await api.sendMessage(CHAT, "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 400, description: "Bad Request: message text is empty" });
  });

  it("uploads a document as a multipart stream, bytes intact", async () => {
    const bytes = Buffer.from("order,amount\nord_1,65000\n");
    const message = await api.sendDocument(CHAT, new InputFile(bytes, "orders.csv"), { caption: "statement" });
    const stored = tg.file(message.document.file_id);
    expect(stored?.fileName).toBe("orders.csv");
    expect(Buffer.compare(stored!.bytes, bytes)).toBe(0);
  });

  it("fails a call whose connection drops, and ends one whose signal aborts while Telegram has not answered", async () => {
    tg.injectFault({ method: "sendMessage", kind: "lose_answer" });
    const lost = await api.sendMessage(CHAT, "lost").catch((e: unknown) => e);
    // The fake drops the connection without an answer: a transport failure, not a Bot API error.
    expect(lost).toBeInstanceOf(HttpError);

    const controller = new AbortController();
    const waiting = api.raw.getUpdates({ timeout: 30 }, controller.signal as never).catch((e: unknown) => e);
    await vi.waitFor(() => expect(tg.longPollWaiting()).toBe(true));
    controller.abort();
    expect(await waiting).toBeInstanceOf(HttpError);
  });

  describe("an answer that is not the Bot API's", () => {
    let proxy: Server;
    beforeEach(async () => {
      // What a reverse proxy in front of the Bot API answers when it is down.
      proxy = createServer((_req, res) => res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad Gateway</html>"));
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    });
    afterEach(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

    it("fails the call as a transport error", async () => {
      const behindProxy = new Api(tg.token, { apiRoot: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, fetch: http.fetch as never });
      await expect(behindProxy.getMe()).rejects.toBeInstanceOf(HttpError);
    });
  });
});
