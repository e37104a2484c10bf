import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

const ADDRESS = "TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("/balance", () => {
  const h = useBotHarness();
  let chat = 5000;

  it("shows TRX exact to the sun, the full address as <code>, and a QR code photo", async () => {
    const u = h.user(++chat, { languageCode: "en" });
    await h.linkChat(u.chatId, { balanceSun: 12_345_678_901, depositAddress: ADDRESS });
    const before = h.tg.botMessages(u.chatId).length;
    await u.send("/balance");
    // One message: the QR code, with the balance, the address (one tap copies it) and what to send as its caption.
    expect(h.tg.botMessages(u.chatId)).toHaveLength(before + 1);
    const card = h.tg.botMessages(u.chatId).at(-1);
    expect(card?.photo?.bytes?.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(card?.text).toContain("12,345.678901 TRX");
    expect(card?.rawText).toContain(`<code>${ADDRESS}</code>`);
    expect(card?.text).toContain("10 TRX");
    expect(h.tg.callsOf("sendChatAction")).not.toHaveLength(0);
  });

  it("groups digits the Russian way and keeps every sun", async () => {
    const u = h.user(++chat, { languageCode: "ru" });
    await h.linkChat(u.chatId, { balanceSun: 1_000_000_000_001, depositAddress: ADDRESS });
    await u.send("/balance");
    const text = h.tg.botMessages(u.chatId).at(-1)?.text ?? "";
    expect(text).toContain("Доступный баланс");
    expect(text).toContain("1\u00a0000\u00a0000,000001 TRX");
  });

  it("explains an address that is not issued yet (null), with no photo", async () => {
    const u = h.user(++chat, { languageCode: "zh" });
    await h.linkChat(u.chatId, { balanceSun: 0, depositAddress: null });
    await u.send("/balance");
    expect(u.lastText()).toContain("0 TRX");
    expect(u.lastText()).toContain("充值地址尚未生成");
    expect(h.tg.callsOf("sendPhoto").filter((c) => Number(c.params["chat_id"]) === u.chatId)).toHaveLength(0);
  });

  it("explains a missing wallet (404 not_found)", async () => {
    const u = h.user(++chat);
    await h.linkChat(u.chatId, { hasWallet: false });
    await u.send("/balance");
    expect(u.lastText()).toContain("no wallet yet");
  });

  it("asks an unlinked chat to /link, without calling the service", async () => {
    const u = h.user(++chat);
    const before = h.sim.requests.length;
    await u.send("/balance");
    expect(u.lastText()).toContain("/link");
    expect(h.sim.requests.length).toBe(before);
  });
});
