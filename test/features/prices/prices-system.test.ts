import { describe, expect, it, vi } from "vitest";
import { useBotHarness } from "../../support/bot-harness.js";

describe("/prices and /system", () => {
  const h = useBotHarness({ simulator: { baseUnitPriceSun: 123 } });

  it("/prices lists every tier with duration, unit price, the price of 100k and the range", async () => {
    const u = h.user(6001, { languageCode: "en" });
    await u.send("/prices");
    const lines = u.lastText().split("\n");
    // The label only abbreviates the duration: named once, in words ("1m (1 min)" said it twice).
    expect(lines).toContain("1 min: 123 sun per unit, 100,000 energy = 12.3 TRX");
    expect(lines).toContain("5 min: 123 sun per unit, 100,000 energy = 12.3 TRX");
    expect(lines).toContain("15 min: 136 sun per unit, 100,000 energy = 13.6 TRX");
    expect(lines).toContain("1 h: 185 sun per unit, 100,000 energy = 18.5 TRX");
    expect(u.lastText()).toContain("from 50,000 to 200,000 energy");
  });

  it("/prices shows a new tier by itself once the cache refreshes", async () => {
    const u = h.user(6002, { languageCode: "ru" });
    h.sim.control.addTier({ durationSec: 7200, label: "2h", unitPriceSun: 250 });
    h.deps.pricing.invalidate();
    await u.send("/prices"); // served stale while the refresh runs
    await vi.waitFor(() => expect(h.deps.pricing.peek()?.tiers.map((t) => t.label)).toContain("2h"));
    await u.send("/prices");
    expect(u.lastText()).toContain("Цены на энергию");
    expect(u.lastText()).toContain("2 ч: 250 sun за единицу, 100\u00a0000 энергии = 25 TRX");
  });

  it("/prices names a tier whose label is not a duration by its label and its duration", async () => {
    const u = h.user(6005, { languageCode: "en" });
    h.sim.control.addTier({ durationSec: 10_800, label: "express", unitPriceSun: 300 });
    h.deps.pricing.invalidate();
    await u.send("/prices");
    await vi.waitFor(() => expect(h.deps.pricing.peek()?.tiers.map((t) => t.label)).toContain("express"));
    await u.send("/prices");
    expect(u.lastText().split("\n")).toContain("express (3 h): 300 sun per unit, 100,000 energy = 30 TRX");
  });

  it("/system describes pools and the provider snapshot in plain words", async () => {
    const u = h.user(6003, { languageCode: "en" });
    await u.send("/system");
    const text = u.lastText();
    expect(text).toMatch(/Energy pools: \d+ of \d+ active, \d+ inactive\./);
    expect(text).toContain("Energy that can be matched right now");
    expect(text).toContain("DelegateResourceContract");
    expect(text).toContain("profit share");
    expect(u.last()?.rawText).toMatch(/<code>T[1-9A-HJ-NP-Za-km-z]{33}<\/code>/);
  });

  it("/system in Chinese", async () => {
    const u = h.user(6004, { languageCode: "zh-hans" });
    await u.send("/system");
    expect(u.lastText()).toContain("服务状态");
    expect(u.lastText()).toContain("能量池");
    expect(u.lastText()).toContain("DelegateResourceContract 和 UnDelegateResourceContract");
  });

  it("/system lists the required permissions as a sentence in each language, and reads naturally in Russian", async () => {
    const en = h.user(6005, { languageCode: "en" });
    await en.send("/system");
    expect(en.lastText()).toContain("for DelegateResourceContract and UnDelegateResourceContract");
    const ru = h.user(6006, { languageCode: "ru" });
    await ru.send("/system");
    expect(ru.lastText()).toContain("DelegateResourceContract и UnDelegateResourceContract");
    expect(ru.lastText()).toContain("Энергия, которую можно выделить прямо сейчас");
    expect(ru.lastText()).toMatch(/войдя в личный кабинет, зарегистрируйтесь по адресу \/v1\//);
  });

  it("/system quotes the service's notes for providers as the service's own text, not as the bot's words", async () => {
    const ru = h.user(6007, { languageCode: "ru" });
    await ru.send("/system");
    expect(ru.last()?.rawText).toMatch(
      /Текст сервиса для поставщиков \(приводится как есть, без перевода\):\n<blockquote>Grant active permission .+<\/blockquote>/,
    );
    expect(ru.last()?.rawText).toContain("<code>DelegateResourceContract</code> и <code>UnDelegateResourceContract</code>");
    const zh = h.user(6008, { languageCode: "zh" });
    await zh.send("/system");
    expect(zh.last()?.rawText).toMatch(/服务方给供应商的原文说明（按原样引用，未翻译）：\n<blockquote>Grant active permission/);
    expect(zh.last()?.rawText).toContain("<code>DelegateResourceContract</code> 和 <code>UnDelegateResourceContract</code>");
  });
});
