/**
 * A signed transaction may carry fields nobody asked for. Whatever they are
 * (a stray toJSON, a __proto__ key, deep nesting), storing the draft must
 * neither throw nor leave a record that cannot be read back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createDraftStore } from "../../../src/shared/broadcasts/draft.js";
import { precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";

const NOW = 1_800_000_000_000;
const dir = mkdtempSync(join(tmpdir(), "draft-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const signed = () => signTrxTransfer({ privateKey: TEST_KEYS.bob.privateKey, to: TEST_KEYS.carol.address, amountSun: 1_500_000, expirationMs: NOW + 300_000 });

describe("broadcast drafts with odd extra fields", () => {
  // The pre-check refuses these keys (test/shared/broadcasts/precheck-structure.test.ts); the store must
  // survive them anyway, for whatever reaches it by another path.
  it("stores and reads back a transaction carrying toJSON and __proto__ keys, at the top and inside raw_data", async () => {
    const store = await openStore(`sqlite://${join(dir, "d.sqlite")}`, { logger: pino({ level: "silent" }) });
    const drafts = createDraftStore({ store, logger: pino({ level: "silent" }) });
    const tx = signed() as unknown as Record<string, unknown>;
    const checked = precheckBroadcast({ input: JSON.stringify(tx), nowMs: NOW, baseUnitPriceSun: 60 });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const text = JSON.stringify({ ...tx, raw_data: { ...(tx["raw_data"] as object), toJSON: 1 } }).replace(/^\{/, '{"toJSON":true,"__proto__":{"polluted":1},');
    expect(precheckBroadcast({ input: text, nowMs: NOW, baseUnitPriceSun: 60 })).toMatchObject({ ok: false, reason: "malformed" });
    const hostile = JSON.parse(text) as Record<string, unknown>;
    const draft = await drafts.create(1, hostile, checked.summary, NOW);
    const back = await drafts.get(draft.draftId);
    expect(back?.signedTx["toJSON"]).toBe(true);
    expect((back?.signedTx["raw_data"] as Record<string, unknown>)["toJSON"]).toBe(1);
    expect(back?.signedTx["txID"]).toBe(tx["txID"]);
    // What would be sent to the service still serializes.
    expect(JSON.parse(JSON.stringify({ signedTx: back?.signedTx })).signedTx.txID).toBe(tx["txID"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    await store.close();
  });

  it("refuses a transaction nested deeper than the limit, as text or as a parsed value", () => {
    const tx = signed() as unknown as Record<string, unknown>;
    const deep = `${"[".repeat(4_000)}${"]".repeat(4_000)}`;
    const text = JSON.stringify(tx).replace(/^\{/, `{"extra":${deep},`);
    expect(precheckBroadcast({ input: text, nowMs: NOW, baseUnitPriceSun: 60 })).toMatchObject({ ok: false, reason: "malformed" });
    expect(precheckBroadcast({ input: JSON.parse(text), nowMs: NOW, baseUnitPriceSun: 60 })).toMatchObject({ ok: false, reason: "malformed" });
    expect(precheckBroadcast({ input: JSON.stringify(tx), nowMs: NOW, baseUnitPriceSun: 60 }).ok).toBe(true);
  });
});
