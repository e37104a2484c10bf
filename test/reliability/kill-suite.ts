/**
 * kill -9 of the real bot process at every step of a confirmed order and of
 * a confirmed broadcast, then a restart over the same store: every charge is
 * announced, nothing is charged twice, and what was announced is counted.
 * The kill lands at a different point of the confirm in each round (a delay
 * after the tap was fetched); where it landed is read from the outside
 * (charged yet? card drawn yet?) and counted too.
 *
 * `npm test` runs one round per flow and backend, the slow suite two on SQLite
 * (kill-confirm.slow.test.ts); `npm run reliability` runs KILL_ROUNDS (default
 * there: 24) and writes the figures to docs/reliability.md's source. One test
 * file per backend (kill-confirm*.test.ts), so the backends run side by side.
 */
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER, waitFor, type StoreTarget } from "../app-harness.js";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";
import { countDelay, emptyFigures, type KillFigures } from "../../testkit/kill-figures.js";
import { startKillWorld, type BotProcess, type KillWorld } from "./kill-world.js";
import { keepRounds, KEEP_ENV } from "./kill-keep.js";

/** Rounds per flow and backend in `npm test` (one shows each path holds), more in `npm run reliability`. */
export const ROUNDS = Number(process.env["KILL_ROUNDS"] ?? 1);
/** The servers' suites spawn slower processes: the same one round in `npm test`. */
export const SERVER_ROUNDS = Number(process.env["KILL_ROUNDS"] ?? 1);
/** The slow suite's rounds on SQLite: the kill lands at a second point of each confirm. */
export const SLOW_ROUNDS = Number(process.env["KILL_ROUNDS"] ?? 2);
/** Milliseconds between the tap being fetched and the kill: before the request, during it, after it, after the card. */
const KILL_DELAYS_MS = [0, 3, 8, 15, 25, 40, 60, 90, 130, 200, 300, 500];
const CHAT = 6161;
/** How long a charged item may take to be announced before it counts as lost (a late one is counted apart). */
const LOST_AFTER_MS = 90_000;

const firstOf = (...times: (number | undefined)[]): number | undefined => {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
};

function report(f: KillFigures): void {
  const line = JSON.stringify(f);
  process.stdout.write(`reliability: ${line}\n`);
  if (process.env["RELIABILITY_OUT"]) appendFileSync(process.env["RELIABILITY_OUT"], `${line}\n`);
}

export function killSuite(backend: string, openTarget: () => Promise<StoreTarget>, rounds: number): void {
  describe(`kill -9 around Confirm on ${backend}`, () => {
    let target: StoreTarget;
    let w: KillWorld;
    let bot: BotProcess;

    beforeAll(async () => {
      target = await openTarget();
      // The restarted bot takes the killed one's tracked items over once their leases run out: short ones here.
      w = await startKillWorld(target, { TRACKING_LEASE_TTL_MS: "2000", TRACKING_SCAN_MS: "500", ...KEEP_ENV });
      bot = await w.startBot();
      await w.say(CHAT, `/link ${w.account.apiKey}`, (m) => /connected/i.test(m.text));
    }, 60_000);

    afterAll(async () => {
      await w?.close();
      await target?.cleanup();
    });

    /**
     * Until no push job is left over any process: what a killed process was sending has been sent
     * again (BullMQ retries it once its lock expired), so a second copy would be in the chat now.
     */
    const settlePush = () => waitFor(async () => (await w.pushBacklog()) === 0, "the push queue to drain", LOST_AFTER_MS);

    /** Kills the bot `delayMs` after the tap was fetched and starts it again; says where the kill landed. */
    async function killAfter(delayMs: number, chargedBefore: number, cardId: number, pristine: string): Promise<keyof KillFigures["landed"]> {
      await sleep(delayMs);
      const charged = w.debits().length > chargedBefore;
      const carded = w.textOf(CHAT, cardId) !== pristine;
      await w.kill(bot);
      bot = await w.startBot();
      return !charged ? "beforeCharge" : carded ? "afterCard" : "chargedBeforeCard";
    }

    it(`announces every order charged across ${rounds} kills, charged once`, { timeout: 60_000 + rounds * 30_000 }, async () => {
      const f = emptyFigures(backend, "order");
      for (let round = 0; round < rounds; round += 1) {
        const quoteMsg = await w.say(CHAT, `/order ${RECEIVER} 100k 1h`, (m) => m.text.includes("Your quote"));
        const quoteId = w.quoteIdOf(quoteMsg);
        const before = w.debits().length;
        await w.tap(CHAT, "✅ Confirm", quoteMsg.messageId);
        f.landed[await killAfter(KILL_DELAYS_MS[round % KILL_DELAYS_MS.length]!, before, quoteMsg.messageId, quoteMsg.text)] += 1;
        f.kills += 1;
        let seen = "";
        const settled = async () =>
          waitFor(
            async () => {
              const pending = await w.pendingCount();
              const q = await w.quoteOf(quoteId);
              seen = `pending=${pending} quote=${q?.state}`;
              if (pending > 0) return false;
              return q && (q.state === "placed" || q.state === "open") ? q : false;
            },
            "the confirmation to settle",
            40_000,
          ).catch((error: unknown) => {
            throw new Error(`${String(error)} (${seen}); bot said:\n${bot.output().split("\n").slice(-15).join("\n")}`);
          });
        let quote = await settled();
        if (quote.state === "open") {
          // Killed after the tap was fetched but before anything was recorded: the tap is gone, nothing was charged.
          expect(w.debits().length).toBe(before);
          f.tapsRetried += 1;
          await w.tap(CHAT, "✅ Confirm", quoteMsg.messageId);
          quote = await waitFor(
            async () => ((await w.quoteOf(quoteId))?.state === "placed" ? w.quoteOf(quoteId) : false),
            "the order placed after the second tap",
          );
        }
        const orderIds = (quote.orders ?? []).map((o) => o.orderId);
        expect(orderIds).toHaveLength(1);
        const notice = (id: string) => new RegExp(`^✅ Order ${id} is fulfilled`);
        const cardSays = (id: string) => (text: string) => text.startsWith(`Order ${id}`) && text.includes("Status: fulfilled");
        const announced = (id: string) => w.botTexts(CHAT, notice(id)).length > 0 || cardSays(id)(w.textOf(CHAT, quoteMsg.messageId));
        try {
          await waitFor(() => orderIds.every(announced), "every order announced as fulfilled", LOST_AFTER_MS);
        } catch {
          f.lostAnnouncements += orderIds.filter((id) => !announced(id)).length;
        }
        await settlePush();
        for (const id of orderIds) {
          const shown = firstOf(
            w.firstShownAt(CHAT, (t) => notice(id).test(t)),
            w.firstShownAt(CHAT, cardSays(id)),
          );
          const changed = w.statusAt(id, "fulfilled");
          if (shown !== undefined && changed !== undefined) countDelay(f, shown - changed);
          f.doubledAnnouncements += Math.max(0, w.botTexts(CHAT, notice(id)).length - 1);
        }
        const charged = w.debits().slice(before);
        f.charges += charged.length;
        f.doubledCharges += Math.max(0, charged.length - orderIds.length);
      }
      report(f);
      // The guarantees: charged once, announced. Doubled notices and timing are measured, not asserted.
      expect(f.doubledCharges).toBe(0);
      expect(f.lostAnnouncements).toBe(0);
    });

    it(`announces every broadcast accepted across ${rounds} kills, charged once`, { timeout: 60_000 + rounds * 30_000 }, async () => {
      const f = emptyFigures(backend, "broadcast");
      for (let round = 0; round < rounds; round += 1) {
        const tx = signTrxTransfer({
          privateKey: TEST_KEYS.bob.privateKey,
          to: TEST_KEYS.carol.address,
          amountSun: 1_000_000 + round,
          expirationMs: Date.now() + 600_000,
        });
        const summary = await w.say(CHAT, `/broadcast ${JSON.stringify(tx)}`, (m) => m.text.includes("Check before sending"));
        const draftId = w.draftIdOf(summary);
        const before = w.debits().length;
        await w.tap(CHAT, "✅ Confirm", summary.messageId);
        f.landed[await killAfter(KILL_DELAYS_MS[(round * 5) % KILL_DELAYS_MS.length]!, before, summary.messageId, summary.text)] += 1;
        f.kills += 1;
        const settled = async () =>
          waitFor(
            async () => {
              if ((await w.pendingCount()) > 0) return false;
              const d = await w.draftOf(draftId);
              return d && (d.state === "submitted" || d.state === "open") ? d : false;
            },
            "the submission to settle",
            40_000,
          );
        let draft = await settled();
        if (draft.state === "open") {
          expect(w.debits().length).toBe(before);
          f.tapsRetried += 1;
          await w.tap(CHAT, "✅ Confirm", summary.messageId);
          draft = await waitFor(
            async () => ((await w.draftOf(draftId))?.state === "submitted" ? w.draftOf(draftId) : false),
            "the broadcast submitted after the second tap",
          );
        }
        const id = draft.broadcastId!;
        const notice = new RegExp(`^✅ Broadcast ${id} is confirmed`);
        const cardSays = (text: string) => text.startsWith(`Broadcast ${id}`) && text.includes("Status: confirmed");
        const announced = () => w.botTexts(CHAT, notice).length > 0 || cardSays(w.textOf(CHAT, summary.messageId));
        try {
          await waitFor(announced, "the broadcast announced as confirmed", LOST_AFTER_MS);
        } catch {
          f.lostAnnouncements += 1;
        }
        await settlePush();
        const shown = firstOf(
          w.firstShownAt(CHAT, (t) => notice.test(t)),
          w.firstShownAt(CHAT, cardSays),
        );
        const changed = w.statusAt(id, "confirmed");
        if (shown !== undefined && changed !== undefined) countDelay(f, shown - changed);
        f.doubledAnnouncements += Math.max(0, w.botTexts(CHAT, notice).length - 1);
        const charged = w.debits().slice(before);
        f.charges += charged.length;
        f.doubledCharges += Math.max(0, charged.length - 1);
      }
      report(f);
      expect(f.doubledCharges).toBe(0);
      expect(f.lostAnnouncements).toBe(0);
    });

    it(`keeps a plan's slots bought and announced across ${rounds} kills, each charged once`, { timeout: 90_000 + rounds * 40_000 }, async () => {
      const f = emptyFigures(backend, "keep");
      bot = await keepRounds({ w, bot, chat: CHAT, rounds, figures: f, lostAfterMs: LOST_AFTER_MS, settlePush });
      report(f);
      expect(f.doubledCharges).toBe(0);
      expect(f.lostAnnouncements).toBe(0);
    });
  });
}
