import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEYS } from "../support/tron-sign.js";
import { startOrderHarness, type OrderHarness } from "./order-harness.js";

const CHAT = 5601;
let h: OrderHarness;

beforeEach(async () => {
  h = await startOrderHarness();
});
afterEach(async () => {
  expect(h.tg.failedCalls()).toEqual([]);
  expect(h.errorLogs()).toEqual([]);
  await h.close();
});

describe("/track", () => {
  it("shows the live record of /track, answers 404 as not found for your account, and never edits to the same text", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/track 123");
    expect(user.lastText()).toContain("Send /track id");
    await user.send(`/track ${"a".repeat(24)}`);
    expect(user.lastText()).toBe(`${"a".repeat(24)} was not found for your account.`);
    const { orders } = await h.deps.service.createOrders(account.apiKey, [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }], "k-track");
    const id = orders[0]!.orderId;
    await h.until(async () => (await h.deps.service.getOrder(account.apiKey, id)).status === "fulfilled");
    await user.send(`/track ${id}`);
    expect(user.lastText()).toContain(`Order ${id}\nStatus: fulfilled\nReceiver: ${TEST_KEYS.carol.address}`);
    const edits = h.tg.callsOf("editMessageText").length;
    const tap = await user.press("🔄 Refresh");
    expect(h.tg.answerOf(tap)?.text).toBe("Nothing has changed.");
    expect(h.tg.callsOf("editMessageText")).toHaveLength(edits);
  });

  it("tracks an unfinished record from /track on and edits its card in place", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    h.sim.control.pauseLifecycles(true);
    const { orders } = await h.deps.service.createOrders(account.apiKey, [{ toAddress: TEST_KEYS.carol.address, amount: 100_000, resource: "ENERGY", durationSec: 60 }], "k-live");
    const id = orders[0]!.orderId;
    await user.send(`/track ${id}`);
    const card = user.last()!.messageId;
    expect(h.textOf(CHAT, card)).toContain("Status: pending");
    h.sim.control.pauseLifecycles(false);
    await h.until(() => h.textOf(CHAT, card).includes("Status: fulfilled"));
    await h.until(() => user.botTexts().some((t) => t.startsWith(`✅ Order ${id}`)));
  });
});
