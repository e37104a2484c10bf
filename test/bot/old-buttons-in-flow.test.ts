import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "./order-harness.js";

const CHAT = 7411;
const BOB = TEST_KEYS.bob.address;
const GENERIC_ERROR = /Something went wrong/;
let h: OrderHarness;

useOrderHarness((started) => (h = started), { keep: true });

/** The cards a chat keeps from before: a delivered order's card, the /orders ledger, /settings, its time-zone picker and /prices. */
async function oldCards(user: ReturnType<OrderHarness["user"]>) {
  await user.send(`/order ${BOB} 100k 1h`);
  const confirm = await user.press("✅ Confirm");
  // The quote became the order's card; the notice replying to it carries no buttons of its own.
  const orderCard = h.pressedMessage(confirm)!;
  await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
  await h.until(() => h.textOf(CHAT, orderCard).includes("Status: fulfilled"));
  await user.send("/orders");
  const ledger = user.last()!.messageId;
  await user.send("/settings");
  const settings = user.last()!.messageId;
  await user.send("/settings");
  await user.press(/Time zone/);
  const zones = user.last()!.messageId;
  await user.send("/prices");
  const prices = user.last()!.messageId;
  return { orderCard, ledger, settings, zones, prices };
}

/** Opens the flow and returns the text its first question starts with. */
async function openFlow(user: ReturnType<OrderHarness["user"]>, flow: "order" | "link" | "keep"): Promise<string> {
  if (flow === "keep") {
    await user.send("/keep");
    await user.press("➕ New plan");
  } else await user.send(`/${flow}`);
  const question = user.lastText();
  expect(question).toMatch(flow === "link" ? /^Send me your API key/ : /^Who receives the energy\?/);
  return question;
}

/** Presses a button of an old message and returns the toast it got and what the bot said after it. */
async function pressOld(user: ReturnType<OrderHarness["user"]>, label: string | RegExp, messageId: number) {
  const before = user.botTexts().length;
  const update = await user.press(label, { messageId });
  const answer = h.tg.answerOf(update);
  expect(answer, `the press of ${String(label)} was answered`).toBeDefined();
  return { toast: answer?.["text"] as string | undefined, said: user.botTexts().slice(before) };
}

const FLOWS = [
  { flow: "order", left: "The order you were placing was left." },
  { flow: "link", left: "Linking your API key was left; nothing was stored." },
  { flow: "keep", left: "The plan you were setting up was left; nothing was started." },
] as const;

describe.each(FLOWS)("old buttons of other cards while the $flow flow waits", ({ flow, left }) => {
  it("work as usual and leave the flow waiting; no generic error, no error log", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const cards = await oldCards(user);
    const question = await openFlow(user, flow);

    // The order card's Track redraws that card (or says nothing changed).
    const track = await pressOld(user, "🔄 Track", cards.orderCard);
    expect(track.said.join("\n")).not.toMatch(GENERIC_ERROR);
    expect(h.textOf(CHAT, cards.orderCard)).toMatch(/Order [0-9a-f]{24}/);

    // A ledger page button redraws the ledger; a row opens the order's live card.
    await pressOld(user, "Orders", cards.ledger);
    expect(
      h.tg
        .view(CHAT)
        .find((m) => m.messageId === cards.ledger)!
        .buttons.flat()
        .map((b) => b.text),
    ).toContain("• Orders");
    const row = await pressOld(user, "🔎 1", cards.ledger);
    expect(row.said.at(-1)).toMatch(/^Order [0-9a-f]{24}\nStatus: fulfilled/);

    // A settings switch flips the setting.
    const toggle = await pressOld(user, "✅ Orders: on", cards.settings);
    expect(toggle.toast).toBe("Order notifications are off.");
    expect((await h.deps.chats.get(CHAT))?.notifications.orders).toBe(false);

    // None of them ended the flow: it still takes its answer.
    expect(user.botTexts().join("\n")).not.toMatch(GENERIC_ERROR);
    expect(user.botTexts()).not.toContain(left);
    if (flow === "link") {
      await user.send("not a key at all");
      expect(user.lastText()).not.toBe(question);
      expect(user.botTexts().join("\n")).not.toMatch(GENERIC_ERROR);
    } else {
      await user.send(BOB);
      expect(user.lastText()).toContain("How much energy?");
    }
    expect(h.tg.unansweredCallbacks()).toEqual([]);
  });

  it("a button that opens another flow leaves this one, says so, and opens its own", async () => {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    const cards = await oldCards(user);

    await openFlow(user, flow);
    const zone = await pressOld(user, "🔎 Type a city", cards.zones);
    expect(zone.said[0]).toBe(left);
    expect(zone.said.at(-1)).toMatch(/^🔎 Send the name of your city/);
    await user.send("Asia/Tokyo");
    expect(await h.flows.limits.timeZoneOf(CHAT)).toBe("Asia/Tokyo");

    await openFlow(user, flow);
    const tier = await pressOld(user, "⚡ Order 1h", cards.prices);
    expect(tier.said).toContain(left);
    expect(tier.said.at(-1)).toMatch(/^Who receives the energy\?/);
    await user.send(BOB);
    await user.send("100k");
    // The tier's duration was taken: the quote follows at once.
    expect(user.lastText()).toContain("Energy: 100,000 for 1 h");

    expect(user.botTexts().join("\n")).not.toMatch(GENERIC_ERROR);
    expect(h.tg.unansweredCallbacks()).toEqual([]);
  });
});
