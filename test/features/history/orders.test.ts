import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5501;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

describe("/orders", () => {
  it("lists this chat's orders newest first, five per page, with buttons", async () => {
    await h.linkChat(CHAT, { balanceSun: 200_000_000 });
    const user = h.user(CHAT);
    // Orders stay pending: no notification lands between the pages.
    h.sim.control.pauseLifecycles(true);
    await user.send("/orders");
    expect(user.lastText()).toContain("No orders or broadcasts yet");
    const amounts = [50_000, 60_000, 70_000, 80_000, 90_000, 100_000, 110_000];
    for (const amount of amounts) {
      await user.send(`/order ${TEST_KEYS.bob.address} ${amount} 1m`);
      await user.press("✅ Confirm");
    }
    await user.send("/orders");
    const first = user.lastText();
    expect(first).toContain("page 1 of 2, 7 in all");
    expect(first.indexOf("110,000 energy")).toBeLessThan(first.indexOf("70,000 energy"));
    expect(first).not.toContain("60,000 energy");
    // The row names the receiver short; its card shows the whole address.
    const bob = TEST_KEYS.bob.address;
    expect(first).toContain(`→ ${bob.slice(0, 6)}…${bob.slice(-4)}`);
    expect(first).toMatch(/1\. Order [0-9a-f]{24}\n/);
    expect(user.lastButtons()).toEqual([
      ["🔎 1", "🔎 2", "🔎 3", "🔎 4", "🔎 5"],
      ["• All", "Orders", "Broadcasts", "This month"],
      ["1 / 2", "Older ▶"],
      // The list shows times and the chat has picked no zone: the choices are offered under it.
      ["🕒 Set my time zone"],
      ["◀️ Home"],
    ]);
    await user.press("Older ▶");
    expect(user.lastText()).toContain("page 2 of 2");
    expect(user.lastText()).toContain("50,000 energy");
    expect(user.lastButtons()).toEqual([
      ["🔎 6", "🔎 7"],
      ["• All", "Orders", "Broadcasts", "This month"],
      ["◀ Newer", "2 / 2"],
      ["🕒 Set my time zone"],
      ["◀️ Home"],
    ]);
  });
});
