import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDraftStore } from "../../../src/shared/broadcasts/draft.js";
import { MAX_TX_DEPTH, precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/store/helpers.js";
import { signTrxTransfer, TEST_KEYS } from "../../../testkit/tron-sign.js";

const NOW = 1_800_000_000_000;
const base = { nowMs: NOW, baseUnitPriceSun: 60 };
const text = JSON.stringify(
  signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountSun: 1_000_000, expirationMs: NOW + 600_000 }),
);
const withField = (where: string, field: string) => text.replace(where, `${where}${field},`);

describe("signed transactions with odd structure (fixed cases of test/fuzz/signed-tx.slow.test.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "precheck-structure-"));
  let store: StoreBackend;
  beforeAll(async () => {
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger: captureLogger().logger, purgeIntervalMs: 0 });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Before the fix these were accepted, and storing the draft threw in the store's serializer
  // ("data.toJSON is not a function", "Maximum call stack size exceeded").
  it.each([
    ["a top-level toJSON", withField("{", '"toJSON":1'), { code: "hostile_field", field: "toJSON" }],
    ["a toJSON inside raw_data", withField('"raw_data":{', '"toJSON":{"a":1}'), { code: "hostile_field", field: "toJSON" }],
    ["a __proto__ field", withField("{", '"__proto__":{"txID":"00"}'), { code: "hostile_field", field: "__proto__" }],
    ["5,000 nested arrays in an extra field", withField("{", `"x":${"[".repeat(5000)}${"]".repeat(5000)}`), { code: "too_deep", maxDepth: MAX_TX_DEPTH }],
    // JSON.parse itself copes; the walk that refuses it is iterative, so no depth overflows it either.
    [
      "100,000 nested arrays in an extra field",
      withField("{", `"x":${"[".repeat(100_000)}${"]".repeat(100_000)}`),
      { code: "too_deep", maxDepth: MAX_TX_DEPTH },
    ],
    ["3,000 nested objects in an extra field", withField("{", `"x":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}`), { code: "too_deep", maxDepth: MAX_TX_DEPTH }],
    ["a wrapped transaction beside a toJSON", `{"toJSON":2,"signedTx":${text}}`, { code: "hostile_field", field: "toJSON" }],
  ])("%s is refused as malformed, with the reason", (_name, input, problem) => {
    expect(precheckBroadcast({ ...base, input })).toEqual({ ok: false, reason: "malformed", problem });
  });

  it("a harmless extra field beside the transaction is still accepted, and the draft holding it stores and reads back unchanged", async () => {
    const result = precheckBroadcast({ ...base, input: withField("{", '"note":{"deep":[[1]]}') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const drafts = createDraftStore({ store, logger: captureLogger().logger });
    const draft = await drafts.create(7, result.signedTx, result.summary, NOW);
    expect((await drafts.get(draft.draftId))?.signedTx).toEqual(JSON.parse(text.replace("{", '{"note":{"deep":[[1]]},')));
  });
});
