/**
 * The plan's card offers ✏️ Edit in app (a web_app button to the plan's Edit form) only where Telegram opens
 * it: an https PUBLIC_URL (the Mini App is offered) and the plan's private chat; never on a stopped plan.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { KeepPlan } from "../../../src/features/keep/keep-plan.js";
import { createI18n } from "../../../src/bot/i18n.js";
import { createKeepCardNotifier } from "../../../src/features/keep/keep-card-notifier.js";

const i18n = createI18n({ defaultLocale: "en", storedLocale: () => Promise.resolve(undefined), logger: pino({ level: "silent" }) });

function planOf(chatId: number, state: KeepPlan["state"] = "active"): KeepPlan {
  return {
    planId: "0123456789ab",
    chatId,
    address: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu",
    amount: 65_000,
    durationSec: 3600,
    createdAtMs: 0,
    timeZone: "UTC",
    state,
    nextSlot: 1,
    slots: [],
    spentTotalSun: "0",
    spentDay: { day: "1970-01-01", sun: "0" },
    updatedAtMs: 1,
    cardMessageId: 10,
  };
}

async function cardButtons(plan: KeepPlan, publicUrl: string | undefined) {
  const jobs: { params: Record<string, unknown> }[] = [];
  const notifier = createKeepCardNotifier({
    push: { enqueue: (job) => Promise.resolve(void jobs.push(job as never)) },
    chats: { get: () => Promise.resolve(undefined) },
    i18n,
    defaultLocale: "en",
    logger: pino({ level: "silent" }),
    readPlan: () => Promise.resolve(plan),
    publicUrl,
    now: () => 1_000,
  });
  await notifier.draw(plan.planId, "asked");
  const markup = jobs[0]!.params["reply_markup"] as { inline_keyboard: { text: string; web_app?: { url: string } }[][] };
  return markup.inline_keyboard.flat();
}

describe("the plan card's ✏️ Edit in app", () => {
  it("opens the plan's Edit form with an https PUBLIC_URL in a private chat", async () => {
    const buttons = await cardButtons(planOf(7001), "https://bot.example.test/");
    expect(buttons.at(-1)).toEqual({ text: "✏️ Edit in app", web_app: { url: "https://bot.example.test/app?screen=keep&plan=0123456789ab" } });
  });

  it("is absent in a group, with an http or no PUBLIC_URL, and on a stopped plan", async () => {
    for (const [plan, url] of [
      [planOf(-1007001), "https://bot.example.test"],
      [planOf(7001), "http://127.0.0.1:8080"],
      [planOf(7001), undefined],
      [planOf(7001, "stopped"), "https://bot.example.test"],
    ] as const) {
      expect((await cardButtons(plan, url)).some((b) => b.web_app !== undefined)).toBe(false);
    }
  });
});
