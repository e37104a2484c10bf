import { describe, expect, it } from "vitest";
import { fromHexAddress } from "../../../src/shared/tron/index.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 5401;
const { alice: A, bob: B, carol: C } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const posts = () => h.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders");
/** A valid address that no test key owns. */
const otherAddress = (n: number) => fromHexAddress(`41${n.toString(16).padStart(40, "0")}`)!;

describe("/addresses", () => {
  it("adds by ➕ (address, then label), renames and deletes with a confirm step, refusing bad input with the reason", async () => {
    const user = h.user(CHAT);
    await user.send("/addresses");
    expect(user.lastText()).toContain("Your address book is empty");
    await user.press("➕ Add");
    expect(user.lastText()).toContain("Send the TRON address to save");
    await user.send("not-an-address");
    expect(user.lastText()).toContain("“not-an-address” is not a valid TRON address");
    await user.send(B.address);
    expect(user.lastText()).toContain(`Send a label for ${B.address}`);
    await user.send(C.address);
    expect(user.lastText()).toContain("looks like an address, so it cannot be a label");
    await user.send("the wallet I use for the shop, in town");
    expect(user.lastText()).toContain("too long for a label: at most 32 characters");
    await user.send("  Main   Wallet ");
    expect(user.lastText()).toContain(`Saved: Main Wallet — ${B.address}`);

    await user.send(`/addresses add ${C.address} main wallet`);
    expect(user.lastText()).toContain("The label “main wallet” already names another address");
    await user.send(`/addresses add ${C.address} Savings`);
    await user.send("/addresses");
    expect(user.lastText()).toContain(`Main Wallet — ${B.address}\nSavings — ${C.address}`);
    expect(user.lastButtons()).toEqual([["Main Wallet"], ["Savings"], ["➕ Add"]]);

    await user.press("Savings");
    await user.press("✏️ Rename");
    expect(user.lastText()).toContain(`Send the new label for ${C.address}`);
    await user.send("MAIN WALLET");
    expect(user.lastText()).toContain("already names another address");
    await user.send("Reserve");
    expect(user.lastText()).toContain(`Saved: Reserve — ${C.address}`);

    await user.send("/addresses");
    const list = h.tg.lastBotMessage(CHAT)!;
    await user.press("Reserve");
    await user.press("🗑 Delete");
    expect(user.lastText()).toContain("Delete this address from the book?");
    await user.press("🗑 Yes, delete");
    expect(user.lastText()).toContain(`Deleted: Reserve — ${C.address}`);
    expect(await h.flows.addressBook.findByLabel(CHAT, "reserve")).toBeUndefined();

    // The old list still carries the deleted entry's button; a forged one names an address never saved.
    const stale = h.tg.rawCallback(CHAT, list.messageId, `ab:e:${C.address}`);
    await h.send(stale);
    expect(h.tg.answerOf(stale)?.["text"]).toBe("That address is no longer in your book.");
    const forged = h.tg.rawCallback(CHAT, list.messageId, `ab:y:${A.address}`);
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.["text"]).toBe("That address is no longer in your book.");
    expect(await h.flows.addressBook.labelOf(CHAT, B.address)).toBe("Main Wallet");
    await user.send("/addresses rename main wallet Daily Spending");
    expect(user.lastText()).toContain(`Saved: Daily Spending — ${B.address}`);
    await user.send("/addresses rename nobody here Other");
    expect(user.lastText()).toContain("“nobody” is not in your address book");
  });

  it("keeps a labelled address through 50 later receivers and still resolves and lists it", async () => {
    await h.linkChat(CHAT, { balanceSun: 1_000_000_000 });
    const user = h.user(CHAT);
    await user.send(`/addresses add ${B.address} Cold Storage`);
    const start = Date.now();
    for (let i = 1; i <= 50; i += 1) await h.flows.addressBook.remember(CHAT, otherAddress(i), start + i);
    const entries = await h.flows.addressBook.list(CHAT);
    expect(entries.filter((e) => e.label === undefined)).toHaveLength(20);
    expect(entries.find((e) => e.address === otherAddress(50))).toBeDefined();
    expect(entries.find((e) => e.address === otherAddress(30))).toBeUndefined();
    await user.send("/addresses");
    expect(user.lastText()).toContain(`Cold Storage — ${B.address}`);
    await user.send("/order cold storage 100k 1h");
    expect(user.lastText()).toContain(`Receiver: ${B.address}`);
  });

  it("takes a label, in any case, in a one-line /order, a /batch line and a CSV row", async () => {
    await h.linkChat(CHAT, { balanceSun: 1_000_000_000 });
    const user = h.user(CHAT);
    await h.flows.addressBook.add(CHAT, B.address, "Bob Wallet", Date.now());
    await h.flows.addressBook.add(CHAT, C.address, "carol", Date.now());
    await user.send("/order BOB WALLET 100k 1h");
    expect(user.lastText()).toContain(`Receiver: ${B.address}`);
    await user.send("/batch");
    await user.send(`bob wallet 100k 1h\nCAROL 65000 15m\n${A.address} 50000 5m`);
    expect(user.lastText()).toContain("Quote for 3 orders");
    expect(user.lastText()).toContain(`1. ${B.address} · 100,000 for 1 h`);
    expect(user.lastText()).toContain(`2. ${C.address} · 65,000 for 15 min`);
    await user.send("/cancel");
    await user.document({ bytes: `receiver,amount,duration\nBob wallet,"65,000",1h\nCarol,100000,300\n`, fileName: "orders.csv", mimeType: "text/csv" });
    expect(user.lastText()).toContain("Quote for 2 orders");
    expect(user.lastText()).toContain(`1. ${B.address} · 65,000 for 1 h`);
    expect(user.lastText()).toContain(`2. ${C.address} · 100,000 for 5 min`);
    expect(posts()).toHaveLength(0);
  });

  it("shows the receiver's label beside its full address on the live card and the final notification", async () => {
    await h.linkChat(CHAT, { balanceSun: 1_000_000_000 });
    const user = h.user(CHAT);
    await h.flows.addressBook.add(CHAT, B.address, "Bob", Date.now());
    await user.send("/order bob 100k 1h");
    const confirm = await user.press("✅ Confirm");
    await h.until(() => user.botTexts().some((t) => t.startsWith("✅ Order")));
    expect(user.botTexts().find((t) => t.startsWith("✅ Order"))).toContain(`${B.address} 🏷 Bob`);
    await h.until(() => h.textOf(CHAT, h.pressedMessage(confirm)).includes("fulfilled"));
    expect(h.textOf(CHAT, h.pressedMessage(confirm))).toContain(`${B.address} 🏷 Bob`);
  });
});
