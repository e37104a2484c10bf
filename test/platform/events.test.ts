import { describe, expect, it } from "vitest";
import { createEvents } from "../../src/platform/events.js";

interface TestEvents {
  "order.seen": { id: string };
  "chat.linked": { chatId: number };
}

describe("events", () => {
  it("tells each subscriber of its event, one after another in the order they subscribed, and resolves once all have", async () => {
    const events = createEvents<TestEvents>();
    const heard: string[] = [];
    events.on("order.seen", async ({ id }) => {
      await new Promise((resolve) => setImmediate(resolve));
      heard.push(`first ${id}`);
    });
    events.on("order.seen", ({ id }) => void heard.push(`second ${id}`));
    events.on("chat.linked", ({ chatId }) => void heard.push(`linked ${chatId}`));

    await events.emit("order.seen", { id: "a" });
    expect(heard).toEqual(["first a", "second a"]);
  });

  it("ends an emit at the first handler that throws, with its error, so the emitter can offer the event again", async () => {
    const events = createEvents<TestEvents>();
    const heard: string[] = [];
    events.on("order.seen", () => {
      throw new Error("store down");
    });
    events.on("order.seen", ({ id }) => void heard.push(id));

    await expect(events.emit("order.seen", { id: "a" })).rejects.toThrow("store down");
    expect(heard).toEqual([]);
  });

  it("resolves at once with no subscriber, and forgets one that unsubscribed", async () => {
    const events = createEvents<TestEvents>();
    await expect(events.emit("chat.linked", { chatId: 1 })).resolves.toBeUndefined();
    const heard: number[] = [];
    const off = events.on("chat.linked", ({ chatId }) => void heard.push(chatId));
    await events.emit("chat.linked", { chatId: 2 });
    off();
    await events.emit("chat.linked", { chatId: 3 });
    expect(heard).toEqual([2]);
  });

  it("a handler subscribed while an event is told hears the next one, not that one", async () => {
    const events = createEvents<TestEvents>();
    const heard: string[] = [];
    events.on("order.seen", () => {
      events.on("order.seen", ({ id }) => void heard.push(id));
    });
    await events.emit("order.seen", { id: "a" });
    expect(heard).toEqual([]);
    await events.emit("order.seen", { id: "b" });
    expect(heard).toEqual(["b"]);
  });
});
