import { describe, expect, it } from "vitest";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

// Fixed cases of the properties in test/fuzz/bot-start-inline.slow.test.ts.
const CHAT = 7401;
let h: OrderHarness;
useOrderHarness((started) => (h = started));

describe("/start with a broken or outdated order deep link", () => {
  it("greets instead of answering 'I do not know that command'", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    for (const payload of ["order_x", "order_", "order_1_2_3", "order_12345678901234567_60"]) {
      await user.send(`/start ${payload}`);
      expect(user.lastText()).toMatch(/^🏠 .*, your account is connected/);
    }
  });

  it("still opens the order flow on a deep link whose amount has more than nine digits", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/start order_1000000000_3600");
    // Outside today's range: the flow opens and asks, rather than the link being dropped.
    expect(user.lastText()).toContain("Who receives the energy?");
  });
});
