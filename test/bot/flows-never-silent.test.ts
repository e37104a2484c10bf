import type { Message, Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { makeChat, makeMessage, makeUser } from "../../testkit/updates.js";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";
import { loadUpdate } from "../support/real-updates.js";

const CHAT = 7301;
const BOB = TEST_KEYS.bob.address;
const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident";
let h: OrderHarness;

useOrderHarness((started) => (h = started));

let nextUpdate = 950_000;
let nextMessage = 50_000;
const from = (chatId: number, languageCode?: string) => makeUser({ id: chatId, ...(languageCode ? { languageCode } : {}) });
const base = (chatId: number, languageCode?: string) => ({
  message_id: nextMessage++,
  date: Math.floor(Date.now() / 1000),
  chat: makeChat({ id: chatId, type: "private" }, from(chatId)),
  from: from(chatId, languageCode),
});

/** Telegram's shapes of the inputs a flow step cannot take. */
const media = {
  photo: (chatId: number, lang?: string) => ({
    ...base(chatId, lang),
    photo: [{ file_id: "AgAD-photo", file_unique_id: "AQAD-p", width: 90, height: 90, file_size: 1_234 }],
  }),
  sticker: (chatId: number, lang?: string) => ({
    ...base(chatId, lang),
    sticker: { file_id: "CAAD-sticker", file_unique_id: "AgAD-s", type: "regular", width: 512, height: 512, is_animated: false, is_video: false, emoji: "👍" },
  }),
  voice: (chatId: number, lang?: string) => ({
    ...base(chatId, lang),
    voice: { file_id: "AwAD-voice", file_unique_id: "AgAD-v", duration: 2, mime_type: "audio/ogg" },
  }),
  location: (chatId: number, lang?: string) => ({ ...base(chatId, lang), location: { latitude: 52.52, longitude: 13.405 } }),
  document: (chatId: number, lang?: string) => ({
    ...base(chatId, lang),
    document: { file_id: "BQAD-doc", file_unique_id: "AgAD-d", file_name: "notes.txt", mime_type: "text/plain", file_size: 10 },
  }),
} as const;

const sendMessage = (message: object) => h.send({ update_id: nextUpdate++, message: message as Message } as Update);

/** The user edits one of their messages (Telegram sends edited_message with the same id). */
function editTo(chatId: number, messageId: number, text: string): Promise<void> {
  const user = from(chatId);
  const message = {
    ...makeMessage({ messageId, chat: makeChat({ id: chatId, type: "private" }, user), from: user, text }),
    edit_date: Math.floor(Date.now() / 1000),
  };
  return h.send({ update_id: nextUpdate++, edited_message: message } as Update);
}

const userMessages = (chatId: number) => h.tg.view(chatId).filter((m) => m.from === "user");

describe("a command sent mid-flow", () => {
  it("says that the flow it ends was left, then answers the command", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    expect(alice.lastText()).toContain("How much energy?");
    const before = alice.botTexts().length;
    await alice.send("/prices");
    const after = alice.botTexts().slice(before);
    expect(after[0]).toBe("The order you were placing was left.");
    expect(after).toHaveLength(2);
    // The flow is over: an amount now is plain text, not an answer to a step.
    await alice.send("100k");
    expect(alice.lastText()).not.toContain("For how long?");
  });

  it("names the flow in the chat's language (broadcast in Russian, link in Chinese)", async () => {
    await h.linkChat(CHAT);
    const ru = h.user(CHAT, { languageCode: "ru" });
    await ru.send("/broadcast");
    await ru.send("/help");
    expect(ru.botTexts()).toContain("Подготовка отправки прервана; ничего не отправлено.");
    const zh = h.user(CHAT + 1, { languageCode: "zh" });
    await zh.send("/link");
    await zh.send("/start");
    expect(zh.botTexts()).toContain("API 密钥绑定已中止；没有保存任何内容。");
  });
});

describe("inside a flow every input gets an answer", () => {
  it("answers a photo, a sticker, a voice, a location, a text document and an edit of one of them with what the step waits for", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    for (const make of [media.photo, media.sticker, media.voice, media.location, media.document]) {
      const before = alice.botTexts().length;
      await sendMessage(make(CHAT));
      expect(alice.botTexts().slice(before)).toEqual(["I'm waiting for the amount of energy; send it as text, or /cancel."]);
    }
    const photo = media.photo(CHAT);
    await sendMessage(photo);
    const before = alice.botTexts().length;
    await h.send({ update_id: nextUpdate++, edited_message: { ...photo, caption: "TXYZ", edit_date: photo.date + 5 } as Message } as Update);
    expect(alice.botTexts().slice(before)).toEqual(["I'm waiting for the amount of energy; send it as text, or /cancel."]);
    // Still in the flow, at the same step.
    await alice.send("100k");
    expect(alice.lastText()).toContain("For how long?");
    await sendMessage(media.sticker(CHAT));
    expect(alice.lastText()).toBe("I'm waiting for the rental duration (tap a button or type it); send it as text, or /cancel.");
  });

  it("answers in Russian and Chinese, and still takes a .csv where the batch flow accepts documents", async () => {
    await h.linkChat(CHAT);
    const ru = h.user(CHAT, { languageCode: "ru" });
    await ru.send("/batch");
    await sendMessage(media.photo(CHAT, "ru"));
    expect(ru.lastText()).toBe("Я жду заказы, по одному в строке, или файл .csv; отправьте его текстом или нажмите /cancel.");
    await ru.document({ bytes: `${BOB},100000,3600\n`, fileName: "orders.csv" });
    expect(ru.lastButtons().flat().length).toBeGreaterThan(1);
    const zh = h.user(CHAT + 1, { languageCode: "zh" });
    await h.linkChat(CHAT + 1);
    await zh.send("/broadcast");
    await sendMessage(media.voice(CHAT + 1, "zh"));
    expect(zh.lastText()).toBe("我正在等待已签名的交易（JSON 文本或 .json 文件）；请以文本发送，或发送 /cancel。");
  });
});

describe("inside a flow, what nobody sent as an answer gets no answer (real updates)", () => {
  const SERVICE = ["gift", "giveaway", "giveaway-created", "checklist", "paid-media", "story"] as const;
  /** A real update moved into the chat, with a message id of its own there. */
  function real(name: string, chatId: number): Update {
    const update = loadUpdate(name, { chatId, updateId: nextUpdate++ });
    (update.message as { message_id: number }).message_id = nextMessage++;
    return update;
  }

  it("a gift, a giveaway, a checklist, paid media or a story while /order waits: no reply, and the step still takes its answer", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    const before = alice.botTexts().length;
    for (const name of SERVICE) await h.send(real(name, CHAT));
    expect(alice.botTexts().slice(before)).toEqual([]);
    await alice.send("100k");
    expect(alice.lastText()).toContain("For how long?");
  });

  it("an edit of a message sent before the step (a real edited_message): no reply; the flow waits on", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT, { languageCode: "ru" });
    await alice.send("/order");
    await alice.send(BOB);
    const answered = userMessages(CHAT).at(-1)!.messageId;
    const before = alice.botTexts().length;
    const edit = loadUpdate("edited-message", { chatId: CHAT, updateId: nextUpdate++, text: "TXYZ" });
    (edit.edited_message as { message_id: number }).message_id = answered;
    await h.send(edit);
    expect(alice.botTexts().slice(before)).toEqual([]);
    await alice.send("100k");
    expect(alice.lastText()).toContain("На какой срок?");
  });

  it("the same while /link waits for a key, and while /broadcast waits for a transaction", async () => {
    const link = h.user(CHAT + 7, { languageCode: "zh" });
    await link.send("/link");
    const linkBefore = link.botTexts().length;
    for (const name of SERVICE) await h.send(real(name, CHAT + 7));
    expect(link.botTexts().slice(linkBefore)).toEqual([]);
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/broadcast");
    const before = alice.botTexts().length;
    for (const name of SERVICE) await h.send(real(name, CHAT));
    expect(alice.botTexts().slice(before)).toEqual([]);
  });
});

describe("an edit that puts a secret into a message", () => {
  it("is deleted inside the link flow too: a recovery phrase and an API key", async () => {
    const alice = h.user(CHAT);
    await alice.send("hello");
    const hello = userMessages(CHAT).at(-1)!.messageId;
    await alice.send("/link");
    expect(alice.lastText()).toContain("API key");
    await editTo(CHAT, hello, MNEMONIC);
    expect(userMessages(CHAT).some((m) => m.messageId === hello)).toBe(false);
    expect(alice.lastText()).toContain("looked like a recovery phrase");

    // The link flow deletes whatever it receives as the key: edit a message sent before the flow.
    await alice.send("/start");
    await alice.send("before");
    const before = userMessages(CHAT).at(-1)!.messageId;
    await alice.send("/link");
    const { apiKey } = h.sim.createAccount();
    await editTo(CHAT, before, `my key ${apiKey}`);
    expect(userMessages(CHAT).some((m) => m.messageId === before)).toBe(false);
    expect(alice.lastText()).toContain("it looked like an API key or webhook secret");
    expect(await h.deps.chats.isLinked(CHAT)).toBe(false);
  });

  it("outside any flow, in a chat with no key, an API key edited in is the user linking, as when pasted: linked, never 'revoke it'", async () => {
    const chat = CHAT + 7;
    const bob = h.user(chat);
    await bob.send("hello");
    const hello = userMessages(chat).at(-1)!.messageId;
    const { apiKey } = h.sim.createAccount({ balanceSun: 2_000_000 });
    await editTo(chat, hello, apiKey);
    expect(userMessages(chat).some((m) => m.messageId === hello)).toBe(false);
    expect(bob.lastText()).toContain("Your account is connected to this chat");
    expect(bob.botTexts().join("\n")).not.toMatch(/revoke/i);
    expect(await h.deps.chats.getApiKey(chat)).toBe(apiKey);
  });

  it("is deleted inside the webhook-secret flow, and with a command word in front", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/prices");
    const prices = userMessages(CHAT).at(-1)!.messageId;
    await alice.send("/webhook secret");
    await editTo(CHAT, prices, `/prices ${TEST_KEYS.alice.privateKey}`);
    expect(userMessages(CHAT).some((m) => m.messageId === prices)).toBe(false);
    expect(alice.lastText()).toContain("looked like a private key");
  });
});

describe("block and unblock during a flow", () => {
  it("pass through every wait: the chat is marked inactive, then active, and the flow keeps waiting", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    await h.send(h.tg.blockedByUser(CHAT));
    expect((await h.deps.chats.get(CHAT))?.active).toBe(false);
    await h.send(h.tg.blockedByUser(CHAT, false));
    expect((await h.deps.chats.get(CHAT))?.active).toBe(true);
    await alice.send("100k");
    expect(alice.lastText()).toContain("For how long?");
  });
});

/** The callback data of a message's button: what a client still showing that keyboard sends. */
function dataOf(message: { buttons: { text: string; callback_data?: string }[][] }, label: string | RegExp): string {
  const button = message.buttons.flat().find((b) => (typeof label === "string" ? b.text === label : label.test(b.text)));
  if (button?.callback_data === undefined) throw new Error(`no button ${String(label)}`);
  return button.callback_data;
}

const buttonsOf = (messageId: number) =>
  h.tg
    .view(CHAT)
    .find((m) => m.messageId === messageId)!
    .buttons.flat();

describe("buttons act only on their own flow", () => {
  it("a Cancel under an old /order prompt never cancels a newer /batch: the prompt loses it, and a stale keyboard's tap answers expired", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    const orderPrompt = alice.last()!.messageId;
    const cancel = dataOf(alice.last()!, "Cancel");
    await alice.send("/batch");
    expect(alice.lastText()).toContain("Paste the orders");
    expect(buttonsOf(orderPrompt)).toEqual([]);
    // Another device may still show the old keyboard.
    const stale = h.tg.rawCallback(CHAT, orderPrompt, cancel);
    await h.send(stale);
    expect(h.tg.answerOf(stale)).toMatchObject({ text: "This button has expired. Please start again." });
    // The batch still runs.
    await alice.send(`${BOB} 100000 1h`);
    expect(alice.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
  });

  it("a tier button of an earlier run never answers the current run's duration step", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/order");
    await alice.send(BOB);
    await alice.send("100k");
    const oldTiers = alice.last()!.messageId;
    const oldHour = dataOf(alice.last()!, /^1h ·/);
    // Left by a command (its question loses its buttons); then a new run reaches the same step.
    await alice.send("/order");
    expect(buttonsOf(oldTiers)).toEqual([]);
    await alice.send(BOB);
    await alice.send("60000");
    // Another device may still show the old keyboard.
    const stale = h.tg.rawCallback(CHAT, oldTiers, oldHour);
    await h.send(stale);
    expect(h.tg.answerOf(stale)).toMatchObject({ text: "This button has expired. Please start again." });
    expect(alice.lastText()).toContain("For how long?");
    await alice.press(/^1h ·/);
    expect(alice.lastText()).toMatch(/Energy: 60,000 for 1 h/);
  });

  it("the current run's Cancel still cancels it", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/batch");
    await alice.press("Cancel");
    expect(alice.lastText()).toBe("Cancelled. Nothing was changed.");
    await alice.send(`${BOB} 100000 1h`);
    expect(alice.lastButtons()).not.toEqual([["✅ Confirm", "Cancel"]]);
  });
});

describe("/cancel voids what waits for Confirm", () => {
  it("a quote: its Confirm then says it was cancelled and charges nothing", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100000 1h`);
    const quote = alice.last()!.messageId;
    // A client that has not drawn the edit yet still shows Confirm: press it after /cancel.
    const confirm = h.tg.press(CHAT, "✅ Confirm", { messageId: quote });
    await alice.send("/cancel");
    expect(alice.lastText()).toContain("can no longer be confirmed; nothing was charged");
    expect(h.textOf(CHAT, quote)).toBe("Quote cancelled. Nothing was charged.");
    await h.send(confirm);
    expect(h.tg.answerOf(confirm)).toMatchObject({ text: "This was cancelled, so nothing was charged. Start again to place it." });
    expect(h.sim.ledger(account.accountId).filter((e) => e.kind === "debit")).toEqual([]);
    expect(h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders")).toHaveLength(0);
  });

  it("a broadcast summary: its Confirm then says it was cancelled and sends nothing (in Russian)", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const ru = h.user(CHAT, { languageCode: "ru" });
    await ru.send("/broadcast");
    await ru.send(
      JSON.stringify(
        signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: Date.now() + 600_000 }),
      ),
    );
    const summary = ru.last()!.messageId;
    const confirm = h.tg.press(CHAT, /Подтвердить/, { messageId: summary });
    await ru.send("/cancel");
    expect(ru.lastText()).toContain("больше нельзя подтвердить");
    await h.send(confirm);
    expect(h.tg.answerOf(confirm)).toMatchObject({ text: "Это было отменено, поэтому ничего не списано. Начните заново, чтобы оформить." });
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toHaveLength(0);
    expect(h.sim.ledger(account.accountId).filter((e) => e.kind === "debit")).toEqual([]);
  });

  it("with nothing open, /cancel still says there is nothing to cancel", async () => {
    await h.linkChat(CHAT);
    const alice = h.user(CHAT);
    await alice.send("/cancel");
    expect(alice.lastText()).toBe("There is nothing to cancel right now.");
  });
});

describe("a chat that blocked the bot", () => {
  it("gets no send attempted by the tracker's notifications (the stored flag is read first)", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const alice = h.user(CHAT);
    await alice.send(`/order ${BOB} 100000 1h`);
    const quote = alice.last()!.messageId;
    await alice.press("✅ Confirm");
    const orderId = /Order ([0-9a-f]{24})/.exec(h.textOf(CHAT, quote))![1]!;
    await h.send(h.tg.blockedByUser(CHAT));
    const after = h.tg.calls.length;
    await h.until(async () => (await h.flows.history.get(CHAT, "order", orderId))?.status === "fulfilled");
    await h.until(async () => (await h.pushSize()) === 0);
    // Telegram would refuse each with 403: none is tried (closeChecked also fails on any refused call).
    expect(h.tg.calls.slice(after).filter((c) => c.params["chat_id"] === CHAT)).toEqual([]);
    expect(h.tg.failedCalls()).toEqual([]);
  });
});
