/** test/app-telegram-limits.test.ts at 1,000 chats: half a minute of answers at Telegram's pace. */
import { describe } from "vitest";
import { appBurst } from "./app-burst.js";

describe("the whole app under Telegram's send limits, 1,000 chats", () => {
  appBurst(1_000, 820_000);
});
