import { describe, expect, it } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

describe("/language", () => {
  const h = useBotHarness({ defaultLocale: "zh" });

  it("offers a keyboard, stores the choice per chat and applies it at once", async () => {
    const u = h.user(1101, { languageCode: "en" });
    await u.send("/language");
    expect(u.lastButtons()).toEqual([["🇬🇧 English", "🇷🇺 Русский", "🇨🇳 中文"], ["◀️ Home"]]);
    await u.press("🇷🇺 Русский");
    // The language is named in the sentence in words, without the flag of the button; Home leads back in it.
    expect(u.lastText()).toBe("Готово: теперь в этом чате я говорю по-русски.");
    expect(u.lastButtons()).toEqual([["◀️ Главная"]]);
    expect(await h.deps.chats.getLocale(u.chatId)).toBe("ru");
    // The stored choice beats the Telegram language from now on.
    await u.send("/help");
    expect(u.lastText()).toContain("Что я умею");
    await u.send("/language");
    await u.press("🇨🇳 中文");
    expect(u.lastText()).toBe("好的，此聊天今后将使用中文。");
    await u.send("/start");
    expect(u.lastText()).toContain("您好");
    await u.send("/language");
    await u.press("🇬🇧 English");
    expect(u.lastText()).toBe("Done: I will speak English in this chat from now on.");
  });

  it("sets this chat's command menu in the chosen language (chat scope), the flows' commands included", async () => {
    const u = h.user(1106, { languageCode: "en" });
    await u.send("/language");
    await u.press("🇷🇺 Русский");
    const menu = h.tg.commands("", `chat:${u.chatId}`);
    expect(menu?.find((c) => c.command === "balance")?.description).toBe("Баланс и адрес для пополнения");
    expect(menu?.map((c) => c.command)).toContain("keep");
    expect(menu?.find((c) => c.command === "order")?.description).toBe("Арендовать энергию для адреса");
    await u.send("/language");
    await u.press("🇨🇳 中文");
    expect(h.tg.commands("", `chat:${u.chatId}`)?.find((c) => c.command === "send")?.description).toBe("用租来的能量从您的钱包发送 USDT");
    expect(h.tg.commands("", "chat:1101")?.find((c) => c.command === "balance")?.description).toBe("Balance and deposit address");
  });

  it("survives a restart", async () => {
    const u = h.user(1102, { languageCode: "en" });
    await u.send("/language");
    await u.press("🇷🇺 Русский");
    await h.restart();
    await u.send("/cancel");
    expect(u.lastText()).toBe("Сейчас нечего отменять.");
  });

  it("falls back to DEFAULT_LOCALE for an unsupported Telegram language", async () => {
    const u = h.user(1103, { languageCode: "de" });
    await u.send("/cancel");
    expect(u.lastText()).toBe("当前没有可取消的操作。");
  });

  it("an unknown locale in a forged button is refused, nothing stored", async () => {
    const u = h.user(1104, { languageCode: "en" });
    await u.send("/language");
    const forged = h.tg.rawCallback(u.chatId, u.last()!.messageId, "lang:xx");
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.["text"]).toContain("expired");
    expect(await h.deps.chats.getLocale(u.chatId)).toBeUndefined();
  });

  it("inside the link conversation texts follow the stored language", async () => {
    const u = h.user(1105, { languageCode: "en" });
    await u.send("/language");
    await u.press("🇨🇳 中文");
    await u.send("/link");
    expect(u.lastText()).toContain("API 密钥");
    await u.send("bad key with spaces");
    expect(u.lastText()).toContain("这看起来不像 API 密钥");
    await u.press("取消");
    expect(u.botTexts()).toContain("已取消，未做任何更改。");
    await u.send("/cancel");
    expect(u.lastText()).toBe("当前没有可取消的操作。");
  });
});
