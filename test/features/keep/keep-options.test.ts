/**
 * The guided /keep's limits as buttons: until tonight, for 24 h, working hours and daily caps around what
 * a day of the plan costs, combinable, each tap drawing the same message again; ✅ Done answers the
 * question and the proposal follows. Each preset is the typed option it stands for, so a tap and `/keep … <option>` propose
 * the same plan; ✏️ Custom keeps the typed options.
 */
import { expect, it } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import type { KeepDraft } from "../../../src/features/keep/keep-store.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const CHAT = 7701;
const BOB = TEST_KEYS.bob.address;
const ZONE = "Europe/Madrid";
let h: OrderHarness;

useOrderHarness((started) => (h = started), { keep: true });

const user = () => h.user(CHAT, { languageCode: "en" });
const messageOf = (messageId: number) => h.tg.view(CHAT).find((m) => m.messageId === messageId)!;
const buttonsOf = (messageId: number) => messageOf(messageId).buttons.map((row) => row.map((b) => b.text));
const botMessages = () => h.tg.botMessages(CHAT).length;
/** A line of a proposal, by its start. */
const lineOf = (text: string, start: string) => text.split("\n").find((line) => line.startsWith(start));

/** The draft a proposal's ✅ Start confirms. */
async function draftOf(messageId: number): Promise<KeepDraft> {
  const start = messageOf(messageId)
    .buttons.flat()
    .find((b) => b.text === "✅ Start");
  const draftId = /^keep:c:([0-9a-f]{12})$/.exec(start?.callback_data ?? "")?.[1];
  const draft = draftId === undefined ? undefined : await h.deps.keep!.store.getDraft(draftId);
  expect(draft, "the proposal's stored draft").toBeDefined();
  return draft!;
}

/** A chat in Madrid time, walked to the limits step of a new 100k / 1 h plan; the step's message id. */
async function optionsStep(): Promise<number> {
  await h.linkChat(CHAT, { balanceSun: 100_000_000 });
  await h.flows.limits.setTimeZone(CHAT, ZONE);
  const u = user();
  await u.send("/keep");
  await u.press("➕ New plan");
  await u.send(BOB);
  await u.send("100k");
  await u.press(/^1h /);
  expect(u.lastText()).toContain("Any limits?");
  return u.last()!.messageId;
}

/** The proposal `/keep` makes for these typed options, and its draft. */
async function typedProposal(options: string): Promise<{ text: string; draft: KeepDraft }> {
  await user().send(`/keep ${BOB} 100k 1h ${options}`);
  const proposal = user().last()!;
  expect(proposal.text).toContain("Keep charged");
  return { text: proposal.text, draft: await draftOf(proposal.messageId) };
}

it("offers the limits as buttons under the plan as it would be proposed", async () => {
  const step = await optionsStep();
  const text = messageOf(step).text;
  expect(text).toContain(`100,000 energy for 1 h at a time to ${BOB}`);
  expect(text).toContain("Runs until you stop it.");
  // 15 TRX an hour is 360 TRX a whole day: round caps from just below it.
  expect(buttonsOf(step)).toEqual([
    ["🌙 Until tonight", "⏱ For 24 h"],
    ["🏢 Working hours 09–18"],
    ["🧢 200 TRX/day", "🧢 500 TRX/day", "🧢 1,000 TRX/day", "🧢 2,000 TRX/day"],
    ["✏️ Custom", "Until I stop it, no limits"],
    ["Cancel"],
  ]);
});

it("Until tonight is until=23:59 in the chat's zone: the same end as typed, drawn on the same message; Done answers it and proposes", async () => {
  const step = await optionsStep();
  const before = botMessages();
  await user().press("🌙 Until tonight", { messageId: step });
  expect(botMessages()).toBe(before);
  expect(buttonsOf(step)[0]).toEqual(["• 🌙 Until tonight", "⏱ For 24 h"]);
  expect(buttonsOf(step)[3]).toEqual(["✏️ Custom", "✅ Done"]);
  const tapped = lineOf(messageOf(step).text, "Runs until");
  expect(tapped).toMatch(/^Runs until 23:59 UTC\+[12]\.$/);
  await user().press("✅ Done", { messageId: step });
  // The question keeps its answer and loses its buttons; the proposal is the one new message.
  expect(messageOf(step).text).toMatch(/^Any limits\?.*\n→ 🌙 Until tonight$/s);
  expect(buttonsOf(step)).toEqual([]);
  expect(botMessages()).toBe(before + 1);
  const proposal = user().last()!;
  expect(buttonsOf(proposal.messageId)).toEqual([["✅ Start", "Cancel"]]);
  expect(lineOf(proposal.text, "Runs until")).toBe(tapped);
  const draft = await draftOf(proposal.messageId);

  const typed = await typedProposal("until=23:59");
  expect(lineOf(typed.text, "Runs until")).toBe(tapped);
  expect(draft.endsAtMs).toBe(typed.draft.endsAtMs);
  expect(draft.timeZone).toBe(ZONE);
});

it("For 24 h is until=24h: the plan ends a day after the tap", async () => {
  const step = await optionsStep();
  const tappedAt = Date.now();
  await user().press("⏱ For 24 h", { messageId: step });
  await user().press("✅ Done", { messageId: step });
  const doneAt = Date.now();
  const proposal = user().last()!;
  const draft = await draftOf(proposal.messageId);
  expect(draft.endsAtMs).toBeGreaterThanOrEqual(tappedAt + 86_400_000);
  expect(draft.endsAtMs).toBeLessThanOrEqual(doneAt + 86_400_000);

  const typedAt = Date.now();
  const typed = await typedProposal("until=24h");
  expect(typed.draft.endsAtMs).toBeGreaterThanOrEqual(typedAt + 86_400_000);
  expect(lineOf(proposal.text, "Runs until")).toMatch(/^Runs until [A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2} UTC\+[12]\.$/);
});

it("Working hours is hours=09:00-18:00 in the chat's zone, and the caps offered follow the shorter day", async () => {
  const step = await optionsStep();
  await user().press("🏢 Working hours 09–18", { messageId: step });
  expect(messageOf(step).text).toContain(`Renews only between 09:00–18:00 (${ZONE}).`);
  // Nine orders of 15 TRX: 135 TRX a day.
  expect(buttonsOf(step)[2]).toEqual(["🧢 100 TRX/day", "🧢 200 TRX/day", "🧢 500 TRX/day", "🧢 1,000 TRX/day"]);
  await user().press("✅ Done", { messageId: step });
  const draft = await draftOf(user().last()!.messageId);
  const typed = await typedProposal("hours=09:00-18:00");
  expect(draft.activeHours).toEqual(typed.draft.activeHours);
  expect(draft.activeHours).toBeDefined();
});

it("a daily cap is cap=<TRX>: the same cap as typed, and the proposal says what it lets through", async () => {
  const step = await optionsStep();
  await user().press("🧢 200 TRX/day", { messageId: step });
  const text = messageOf(step).text;
  expect(text).toContain("At most 200 TRX per day.");
  expect(text).toContain("The cap of 200 TRX lets 13 of the 24 orders of a day through");
  await user().press("✅ Done", { messageId: step });
  const draft = await draftOf(user().last()!.messageId);
  const typed = await typedProposal("cap=200");
  expect(draft.dailyCapSun).toBe(typed.draft.dailyCapSun);
  expect(draft.dailyCapSun).toBe("200000000");
});

it("combines the limits; a tap on another end replaces the end, a second tap takes a limit back", async () => {
  const step = await optionsStep();
  const before = botMessages();
  await user().press("🌙 Until tonight", { messageId: step });
  await user().press("🏢 Working hours 09–18", { messageId: step });
  await user().press("🧢 500 TRX/day", { messageId: step });
  await user().press("⏱ For 24 h", { messageId: step });
  expect(buttonsOf(step).slice(0, 2)).toEqual([["🌙 Until tonight", "• ⏱ For 24 h"], ["• 🏢 Working hours 09–18"]]);
  expect(buttonsOf(step)[2]).toContain("• 🧢 500 TRX/day");
  await user().press("• 🧢 500 TRX/day", { messageId: step });
  expect(messageOf(step).text).not.toContain("At most");
  expect(botMessages()).toBe(before);
  await user().press("✅ Done", { messageId: step });
  expect(messageOf(step).text).toMatch(/\n→ ⏱ For 24 h · 🏢 Working hours 09–18$/);
  const draft = await draftOf(user().last()!.messageId);
  const typed = await typedProposal("until=24h hours=09:00-18:00");
  expect(draft.activeHours).toEqual(typed.draft.activeHours);
  expect(draft.dailyCapSun).toBeUndefined();
  expect(draft.endsAtMs).toBeDefined();
});

it("no limit: the button proposes a plan that runs until stopped", async () => {
  const step = await optionsStep();
  await user().press("Until I stop it, no limits", { messageId: step });
  expect(messageOf(step).text).toMatch(/\n→ Until I stop it, no limits$/);
  const proposal = user().last()!;
  expect(proposal.text).toContain("Runs until you stop it.");
  expect(buttonsOf(proposal.messageId)).toEqual([["✅ Start", "Cancel"]]);
  const draft = await draftOf(proposal.messageId);
  expect(draft.endsAtMs ?? draft.dailyCapSun ?? draft.activeHours).toBeUndefined();
});

it("✏️ Custom explains the typed options; a bad one is refused as /keep refuses it, a good one joins the tapped ones", async () => {
  const step = await optionsStep();
  await user().press("🌙 Until tonight", { messageId: step });
  await user().press("✏️ Custom", { messageId: step });
  expect(user().lastText()).toContain("Send the limits as options, for example until=18:00 cap=20 hours=09:00-18:00");
  await user().send("cap=lots");
  expect(user().lastText()).toBe("“lots” is not a daily cap: use an amount in TRX such as cap=20 or cap=2.5.");
  await user().send("hours=25-26");
  expect(user().lastText()).toContain("“25-26” are not active hours");
  await user().send("cap=20 hours=22-06");
  const proposal = user().last()!;
  expect(proposal.messageId).not.toBe(step);
  expect(proposal.text).toMatch(/Runs until 23:59 UTC\+[12]\./);
  expect(proposal.text).toContain("At most 20 TRX per day.");
  expect(proposal.text).toContain(`Renews only between 22:00–06:00 (${ZONE}).`);
  const draft = await draftOf(proposal.messageId);
  const typed = await typedProposal("until=23:59 cap=20 hours=22-06");
  expect({ ...draft, draftId: "", createdAtMs: 0 }).toEqual({ ...typed.draft, draftId: "", createdAtMs: 0 });
  // The question keeps what answered it, taps and text, and loses its buttons.
  expect(messageOf(step).text).toMatch(/\n→ 🌙 Until tonight · cap=20 hours=22-06$/);
  expect(buttonsOf(step)).toEqual([]);
});

it("speaks Russian and Chinese", async () => {
  for (const [languageCode, tonight, done] of [
    ["ru", "🌙 До конца дня", "✅ Готово"],
    ["zh", "🌙 到今晚", "✅ 完成"],
  ] as const) {
    await h.linkChat(CHAT, { balanceSun: 100_000_000 });
    const u = h.user(CHAT, { languageCode });
    await u.send("/keep");
    await u.press(/^➕/);
    await u.send(BOB);
    await u.send("100000");
    // The hour tier, as each language writes it ("1 ч", "1小时").
    await u.press(/^1 ?(ч|小时)/);
    const step = u.last()!.messageId;
    await u.press(tonight, { messageId: step });
    expect(buttonsOf(step)[0]![0]).toBe(`• ${tonight}`);
    await u.press(done, { messageId: step });
    expect(messageOf(step).text).toContain(`→ ${tonight}`);
    expect(u.lastButtons()[0]).toHaveLength(2);
    await u.send("/cancel");
  }
});
