import { Api, GrammyError, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../../testkit/fake-telegram/fake-telegram.js";

/** The fake Bot API refuses what Telegram refuses, so the bot's tests can trust it. */
describe("fake Telegram Bot API", () => {
  let tg: FakeTelegram;
  let api: Api;
  beforeAll(async () => {
    tg = await startFakeTelegram();
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    tg.addChat(1);
    tg.addChat(-5, { type: "group" });
  });
  afterAll(async () => {
    await tg.close();
  });

  const refusal = async (call: Promise<unknown>): Promise<{ code: number; description: string; retryAfter?: number }> => {
    try {
      await call;
    } catch (e) {
      if (e instanceof GrammyError)
        return { code: e.error_code, description: e.description, ...(e.parameters.retry_after ? { retryAfter: e.parameters.retry_after } : {}) };
      throw e;
    }
    throw new Error("expected a refusal");
  };

  it("answers getMe and refuses a wrong token and unknown methods", async () => {
    expect((await api.getMe()).username).toBe("energy_test_bot");
    expect((await refusal(new Api("1:wrong", { apiRoot: tg.apiRoot }).getMe())).code).toBe(401);
  });

  it("refuses MarkdownV2 with unescaped reserved characters, accepts escaped ones", async () => {
    expect(await refusal(api.sendMessage(1, "Price: 1.5 TRX", { parse_mode: "MarkdownV2" }))).toMatchObject({
      code: 400,
      description: expect.stringContaining("can't parse entities"),
    });
    const ok = await api.sendMessage(1, "Price: *1\\.5* TRX", { parse_mode: "MarkdownV2" });
    expect(tg.view(1).find((m) => m.messageId === ok.message_id)?.text).toBe("Price: 1.5 TRX");
  });

  it("refuses bad or unknown HTML tags and bare &, and shows the user the plain text", async () => {
    for (const text of ["<b>bold", "<foo>x</foo>", "a & b", "<b>x</i>", "1 < 2"]) {
      expect((await refusal(api.sendMessage(1, text, { parse_mode: "HTML" }))).description).toContain("can't parse entities");
    }
    const m = await api.sendMessage(1, "<b>a</b> &amp; <code>T&lt;1&gt;</code>", { parse_mode: "HTML" });
    expect(tg.view(1).find((v) => v.messageId === m.message_id)?.text).toBe("a & T<1>");
  });

  it("refuses empty and over-long texts and callback_data over 64 bytes", async () => {
    expect((await refusal(api.sendMessage(1, ""))).description).toContain("message text is empty");
    expect((await refusal(api.sendMessage(1, "x".repeat(4097)))).description).toContain("message is too long");
    await api.sendMessage(1, "x".repeat(4096));
    const markup = { inline_keyboard: [[{ text: "b", callback_data: "x".repeat(65) }]] };
    expect((await refusal(api.sendMessage(1, "hi", { reply_markup: markup }))).description).toContain("BUTTON_DATA_INVALID");
  });

  it("refuses URL buttons that are not absolute http(s) or tg:// links, and more than 100 buttons", async () => {
    for (const url of ["tronscan.org/#/address/T1", "ftp://example.com/x", "https://", "javascript:alert(1)", "https://exa mple.com"]) {
      const markup = { inline_keyboard: [[{ text: "b", url }]] };
      expect((await refusal(api.sendMessage(1, "hi", { reply_markup: markup }))).description, url).toContain("BUTTON_URL_INVALID");
    }
    for (const url of ["https://tronscan.org/#/transaction/ab12", "http://127.0.0.1:8080/dashboard", "tg://resolve?domain=energy_test_bot"]) {
      await api.sendMessage(1, "hi", { reply_markup: { inline_keyboard: [[{ text: "b", url }]] } });
    }
    const many = { inline_keyboard: Array.from({ length: 11 }, (_, r) => Array.from({ length: 10 }, (_, c) => ({ text: "b", callback_data: `b${r}-${c}` }))) };
    expect((await refusal(api.sendMessage(1, "hi", { reply_markup: many }))).description).toContain("too many inline keyboard buttons");
  });

  it("counts the limits after entity parsing, as Telegram does: 4,096 visible text characters, 1,024 of a caption", async () => {
    await api.sendMessage(1, `<b>${"x".repeat(4096)}</b>`, { parse_mode: "HTML" });
    await api.sendMessage(1, "&lt;".repeat(4096), { parse_mode: "HTML" });
    expect((await refusal(api.sendMessage(1, `<b>${"x".repeat(4097)}</b>`, { parse_mode: "HTML" }))).description).toBe("Bad Request: message is too long");
    const m = await api.sendMessage(1, "short");
    expect((await refusal(api.editMessageText(1, m.message_id, "x".repeat(4097)))).description).toBe("Bad Request: message is too long");
    const file = new InputFile(Buffer.from("{}"), "a.json");
    await api.sendDocument(1, file, { caption: `<i>${"c".repeat(1024)}</i>`, parse_mode: "HTML" });
    expect((await refusal(api.sendDocument(1, new InputFile(Buffer.from("{}"), "b.json"), { caption: "c".repeat(1025) }))).description).toBe(
      "Bad Request: message caption is too long",
    );
  });

  it("refuses an edit that changes nothing and edits or deletes of missing messages", async () => {
    const m = await api.sendMessage(1, "same");
    expect((await refusal(api.editMessageText(1, m.message_id, "same"))).description).toContain("message is not modified");
    await api.editMessageText(1, m.message_id, "changed");
    expect(tg.view(1).find((v) => v.messageId === m.message_id)?.text).toBe("changed");
    await api.deleteMessage(1, m.message_id);
    expect((await refusal(api.deleteMessage(1, m.message_id))).description).toContain("message to delete not found");
    expect((await refusal(api.editMessageText(1, m.message_id, "again"))).description).toContain("message to edit not found");
  });

  it("records what a message replies to, and refuses a reply to a deleted message unless told to send it anyway", async () => {
    const card = await api.sendMessage(1, "card");
    const notice = await api.sendMessage(1, "notice", { reply_parameters: { message_id: card.message_id } });
    expect(tg.view(1).find((m) => m.messageId === notice.message_id)?.replyTo).toBe(card.message_id);
    await api.deleteMessage(1, card.message_id);
    expect(await refusal(api.sendMessage(1, "again", { reply_parameters: { message_id: card.message_id } }))).toMatchObject({
      code: 400,
      description: expect.stringContaining("message to be replied not found"),
    });
    const alone = await api.sendMessage(1, "alone", { reply_parameters: { message_id: card.message_id, allow_sending_without_reply: true } });
    expect(tg.view(1).find((m) => m.messageId === alone.message_id)?.replyTo).toBeUndefined();
  });

  it("refuses more than 50 inline results and answers to unknown queries", async () => {
    const update = tg.inlineQuery(7, "q");
    const results = Array.from({ length: 51 }, (_, i) => ({
      type: "article" as const,
      id: String(i),
      title: "t",
      input_message_content: { message_text: "m" },
    }));
    expect((await refusal(api.answerInlineQuery(update.inline_query!.id, results))).description).toContain("RESULTS_TOO_MUCH");
    await api.answerInlineQuery(update.inline_query!.id, results.slice(0, 50));
    expect((await refusal(api.answerInlineQuery(update.inline_query!.id, []))).description).toContain("query is too old");
  });

  it("reports callback queries the bot never answered (a spinning button)", async () => {
    const sent = await api.sendMessage(1, "menu", { reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "go" }]] } });
    const pressed = tg.press(1, "Go", { messageId: sent.message_id });
    const id = pressed.callback_query!.id;
    expect(tg.unansweredCallbacks()).toContain(id);
    await api.answerCallbackQuery(id);
    expect(tg.unansweredCallbacks()).not.toContain(id);
    expect((await refusal(api.answerCallbackQuery(id))).description).toContain("query is too old");
  });

  it("answers 403 for a chat that blocked the bot", async () => {
    tg.blockChat(2);
    expect(await refusal(api.sendMessage(2, "hi"))).toMatchObject({ code: 403, description: "Forbidden: bot was blocked by the user" });
  });

  it("applies Telegram's rate limits when asked: 429 with retry_after", async () => {
    tg.setRateLimits({ globalPerSecond: 30, perChatPerSecond: 1, perGroupPerMinute: 20 });
    try {
      await api.sendMessage(1, "one");
      expect(await refusal(api.sendMessage(1, "two"))).toMatchObject({ code: 429, retryAfter: 1 });
      for (let i = 0; i < 20; i += 1) await api.sendMessage(-5, `g${i}`).catch(() => undefined);
      expect((await refusal(api.sendMessage(-5, "over"))).retryAfter).toBeGreaterThan(1);
    } finally {
      tg.setRateLimits(false);
    }
  });

  it("accepts a multipart photo upload and serves uploaded user documents for download", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000", "hex");
    const sent = await api.sendPhoto(1, new InputFile(png, "qr.png"), { caption: "<code>T1</code>", parse_mode: "HTML" });
    expect(
      tg
        .view(1)
        .find((m) => m.messageId === sent.message_id)
        ?.photo?.bytes?.equals(png),
    ).toBe(true);
    const upload = tg.document(1, { bytes: "a,b\n1,2\n", fileName: "batch.csv" });
    const file = await api.getFile(upload.message!.document!.file_id);
    const body = await (await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`)).text();
    expect(body).toBe("a,b\n1,2\n");
  });

  it("records calls and lets a test wait for the next bot message", async () => {
    const next = tg.waitForBotMessage(1, 2000, (m) => m.text === "later");
    await api.sendMessage(1, "later");
    expect((await next).text).toBe("later");
    expect(tg.callsOf("sendMessage").at(-1)?.params["text"]).toBe("later");
    await expect(tg.waitForBotMessage(1, 20)).rejects.toThrow(/within 20 ms/);
  });

  it("ends an older pending getUpdates with 409 when a newer one arrives, and serves the newer one", async () => {
    const poll = (timeout: number, signal?: AbortSignal) =>
      fetch(`${tg.apiRoot}/bot${tg.token}/getUpdates`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ timeout }),
        ...(signal ? { signal } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { ok: boolean; description?: string; result?: { update_id: number }[] } }));
    const older = poll(30);
    await vi.waitFor(() => expect(tg.longPollWaiting()).toBe(true));
    const newer = poll(30);
    expect(await older).toMatchObject({ status: 409, body: { ok: false, description: expect.stringContaining("terminated by other getUpdates request") } });
    await vi.waitFor(() => expect(tg.longPollWaiting()).toBe(true));
    const update = tg.text(1, "hello");
    tg.enqueue(update);
    const served = await newer;
    expect(served.status).toBe(200);
    expect(served.body.result?.map((u) => u.update_id)).toContain(update.update_id);
    const failed = tg.failedCalls().filter((c) => c.method === "getUpdates");
    expect(failed.map((c) => c.errorCode)).toEqual([409]);
    await poll(0).then(() => undefined); // leaves the queue as it was; nothing pending
  });

  it("stops waiting when the client of a long poll disconnects (no 409 for the next poll)", async () => {
    const aborted = new AbortController();
    const abandoned = fetch(`${tg.apiRoot}/bot${tg.token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offset: 1_000_000, timeout: 30 }),
      signal: aborted.signal,
    }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(tg.longPollWaiting()).toBe(true));
    aborted.abort();
    await abandoned;
    await vi.waitFor(() => expect(tg.longPollWaiting()).toBe(false));
    const before = tg.failedCalls().length;
    expect(await api.getUpdates({ offset: 1_000_000, timeout: 0 })).toEqual([]);
    expect(tg.failedCalls().length).toBe(before);
  });
});
