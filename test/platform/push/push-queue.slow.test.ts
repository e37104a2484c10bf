import { describe, it } from "vitest";
import { deliverAcrossRestart } from "./deliver-across-restart.js";

// Load-shaped: `npm test` runs the same scenario at 50 chats (push-queue.test.ts).
describe("push queue over SQLite and the fake Bot API, at volume", () => {
  it("delivers 2,000 notifications to 500 chats exactly once within Telegram's limits, across a restart", async () => {
    await deliverAcrossRestart(500);
  }, 180_000);
});
