import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSignedTx } from "../../../src/shared/broadcasts/check-broadcast.js";
import { createDraftStore, type DraftStore } from "../../../src/shared/broadcasts/draft.js";
import { precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import type { Pricing } from "../../../src/platform/service/schemas.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { signTrxTransfer, stripSignature, TEST_KEYS } from "../../../testkit/tron-sign.js";

const NOW = 1_800_000_000_000;
const dir = mkdtempSync(join(tmpdir(), "check-broadcast-"));
let store: StoreBackend;
let drafts: DraftStore;
beforeAll(async () => {
  store = await openStore(`sqlite://${join(dir, "c.sqlite")}`, { logger: pino({ level: "silent" }) });
  drafts = createDraftStore({ store, logger: pino({ level: "silent" }) });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const signed = () => signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: NOW + 300_000 });

/** Prices that count how often they were asked for. */
function pricing() {
  const asked = { count: 0 };
  return { asked, get: () => ((asked.count += 1), Promise.resolve({ baseUnitPriceSun: 60 } as Pricing)) };
}

describe("checkSignedTx (the local check of a broadcast, a core use case)", () => {
  it("stores a draft under the chat's link with the summary precheckBroadcast gives, reading the prices once", async () => {
    const prices = pricing();
    const text = JSON.stringify(signed());
    const result = await checkSignedTx({ pricing: prices, drafts, now: () => NOW }, 42, "link-1", text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expected = precheckBroadcast({ input: text, nowMs: NOW, baseUnitPriceSun: 60 });
    expect(expected.ok && result.draft.summary).toEqual(expected.ok && expected.summary);
    expect(result.draft).toMatchObject({ chatId: 42, linkId: "link-1", state: "open" });
    expect(result).toMatchObject({ baseUnitPriceSun: 60, nowMs: NOW });
    expect(prices.asked.count).toBe(1);
  });

  it("refuses a transaction before anything else: no prices read, no draft stored", async () => {
    const prices = pricing();
    const result = await checkSignedTx({ pricing: prices, drafts, now: () => NOW }, 43, undefined, JSON.stringify(stripSignature(signed())));
    expect(result).toMatchObject({ ok: false });
    expect(prices.asked.count).toBe(0);
    expect(await drafts.recentIds(43)).toEqual([]);
  });

  it("says the prices are unavailable when they cannot be read, and stores nothing", async () => {
    const failing = { get: () => Promise.reject(new Error("down")) };
    const result = await checkSignedTx({ pricing: failing, drafts, now: () => NOW }, 44, undefined, JSON.stringify(signed()));
    expect(result).toEqual({ ok: false, reason: "pricing_unavailable" });
    expect(await drafts.recentIds(44)).toEqual([]);
  });
});
