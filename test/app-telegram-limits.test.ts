/**
 * The bot's answers share one budget with the push queue and are paced to
 * Telegram's limits: 200 users asking at once all get their answer.
 */
import { describe } from "vitest";
import { appBurst } from "./app-burst.js";

describe("the whole app under Telegram's send limits", () => {
  appBurst(200, 810_000);
});
