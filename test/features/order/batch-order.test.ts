import { describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { debitsOf, type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5201;
const { alice: A, bob: B, carol: C } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");

describe("batch orders", () => {
  it("turns pasted lines into one quote with the count and total, and places them in one request", async () => {
    const account = await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const user = h.user(CHAT);
    await user.send("/order");
    await user.send(`${A.address} 100k 1h\n${B.address} 65,000 15m\n${C.address} 50000 5m`);
    const quote = user.lastText();
    expect(quote).toContain("Quote for 3 orders");
    expect(quote).toContain(`1. ${A.address} · 100,000 for 1 h · 15 TRX`);
    expect(quote).toContain(`2. ${B.address} · 65,000 for 15 min · 7.15 TRX`);
    expect(quote).toContain("Total: 27.15 TRX");
    const confirm = await user.press("✅ Confirm");
    const card = h.pressedMessage(confirm);
    expect(h.textOf(CHAT, card)).toContain("Batch of 3 orders");
    expect(h.textOf(CHAT, card)).toContain("cost: 27.15 TRX");
    expect(posts()).toHaveLength(1);
    expect(debitsOf(h, account.accountId).reduce((a, b) => a + b, 0)).toBe(27_150_000);
    // One card and one final message for the whole batch, never a message per order.
    await h.until(() => h.textOf(CHAT, card).includes("3 / 3 fulfilled") && user.lastText().includes("All 3 orders of the batch are fulfilled"));
    expect(user.botTexts().filter((t) => t.startsWith("✅ Order"))).toEqual([]);
  });

  it("reports every bad line with its number and reason before anything is sent, then accepts the fixed list", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/batch");
    expect(user.lastText()).toContain("one per line");
    await user.send(`${A.address} 100k 1h\nT<b>&bad 100k\n${B.address} 12 1h\n${C.address} 100k 2d`);
    const report = user.lastText();
    expect(report).toContain("Nothing was sent. Fix these 3 lines");
    expect(report).toContain("Line 2: “T<b>&bad” is not a valid TRON address");
    expect(report).toContain("Line 3: 12 is outside 50,000–200,000");
    expect(report).toContain("Line 4: “2d” is not an available duration");
    expect(posts()).toHaveLength(0);
    await user.send(`${A.address} 100k\n${B.address} 70 000`);
    expect(user.lastText()).toContain("2 lines have no duration");
    await user.press(/^5m ·/);
    expect(user.lastText()).toContain("Quote for 2 orders");
    expect(user.lastText()).toContain("100,000 for 5 min");
  });

  it("reads a .csv document and refuses one over 100 orders", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    const csv = `address,amount,duration\n${A.address},"65,000",1h\n${B.address},100000,300\n`;
    await user.document({ bytes: csv, fileName: "orders.csv", mimeType: "text/csv" });
    expect(user.lastText()).toContain("Quote for 2 orders");
    const many = Array.from({ length: 101 }, () => `${A.address},100000,60`).join("\n");
    await user.send("/batch");
    await user.document({ bytes: many, fileName: "many.csv" });
    expect(user.lastText()).toContain("That is 101 orders; a batch holds at most 100");
    expect(posts()).toHaveLength(0);
  });
  it("reads another .csv document after reporting bad lines in one, instead of locking the chat", async () => {
    await h.linkChat(CHAT);
    const user = h.user(CHAT);
    await user.send("/batch");
    await user.document({ bytes: `${A.address},100000,1h\nxyz,100k,1h\n`, fileName: "bad.csv", mimeType: "text/csv" });
    expect(user.lastText()).toContain("Line 2: “xyz” is not a valid TRON address");
    await user.document({ bytes: `${A.address},100000,1h\n${B.address},65000,15m\n`, fileName: "good.csv", mimeType: "text/csv" });
    expect(user.lastText()).toContain("Quote for 2 orders");
    await user.send("/help");
    expect(user.lastText()).toContain("What I can do");
  });
});
