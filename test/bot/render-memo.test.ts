import { describe, expect, it } from "vitest";
import { createRenderMemo, createRenderMemoBy } from "../../src/bot/helpers/render-memo.js";

describe("render memo", () => {
  it("renders once per key and hands back the same result after", () => {
    const memo = createRenderMemo<string>();
    let renders = 0;
    const render = (text: string) => () => `${text}#${String(++renders)}`;
    expect(memo("en:private", render("help en"))).toBe("help en#1");
    expect(memo("en:private", render("help en"))).toBe("help en#1");
    expect(memo("ru:private", render("help ru"))).toBe("help ru#2");
    expect(memo("en:group", render("help en group"))).toBe("help en group#3");
    expect(renders).toBe(3);
  });

  it("starts over past its limit instead of growing", () => {
    const memo = createRenderMemo<number>();
    let renders = 0;
    for (let round = 0; round < 2; round += 1) for (let key = 0; key < 100; key += 1) memo(String(key), () => ++renders);
    // 100 keys twice: a memo that kept them all would have rendered 100 times.
    expect(renders).toBeGreaterThan(100);
  });

  it("renders anew for a newer object (a reloaded price list), per key", () => {
    const memo = createRenderMemoBy<string>();
    const before = { tiers: 3 };
    const after = { tiers: 4 };
    expect(memo(before, "en", () => "3 tiers")).toBe("3 tiers");
    expect(memo(before, "en", () => "not rendered")).toBe("3 tiers");
    expect(memo(after, "en", () => "4 tiers")).toBe("4 tiers");
    expect(memo(before, "ru", () => "3 тарифа")).toBe("3 тарифа");
  });
});
