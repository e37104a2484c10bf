import { describe, expect, it } from "vitest";
import { useBotHarness } from "../support/bot-harness.js";

describe("buttons on messages that cannot be edited", () => {
  const h = useBotHarness();

  it("a forged Cancel on a message the bot cannot edit is answered as expired, not as a failure", async () => {
    const u = h.user(9101, { languageCode: "en" });
    await u.send("/start");
    const own = h.tg.history(u.chatId).find((m) => m.from === "user")!;
    const forged = h.tg.rawCallback(u.chatId, own.messageId, "cancel:order");
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.["text"]).toBe("This button has expired. Please start again.");
    expect(u.botTexts().some((t) => t.includes("Something went wrong"))).toBe(false);
    // The pressed message shows no buttons: there is nothing to take off, so no edit is tried.
    expect(h.takeFailedCalls()).toEqual([]);
  });

  it("a Cancel on a deleted message is answered as expired too", async () => {
    const u = h.user(9102, { languageCode: "en" });
    await u.send("/start");
    const forged = h.tg.rawCallback(u.chatId, 999, "cancel:link");
    await h.send(forged);
    expect(h.tg.answerOf(forged)?.["text"]).toBe("This button has expired. Please start again.");
    expect(h.takeFailedCalls()).toEqual([]);
  });
});

describe("log lines", () => {
  const h = useBotHarness();

  it("carry chat_id once, also when the error handler logs", async () => {
    const u = h.user(9201, { languageCode: "en" });
    await h.linkChat(u.chatId);
    h.sim.faults.inject({ method: "GET", path: "/v1/balance", kind: "status", status: 503, code: "service_unavailable" });
    try {
      await u.send("/balance");
    } finally {
      h.sim.faults.clear();
    }
    const failed = h.rawLogs.filter((l) => l.includes('"service call failed"'));
    expect(failed).not.toHaveLength(0);
    for (const line of h.rawLogs.filter((l) => l.includes(`"chat_id":${u.chatId}`))) {
      expect(line.split('"chat_id"').length - 1, line).toBe(1);
    }
  });
});
