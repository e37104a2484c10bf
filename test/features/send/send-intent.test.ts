/** The one-time signing link (docs/send.md, "The one-time link"). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createSendIntents, SIGNING_LINK_TTL_MS, type SendIntents } from "../../../src/features/send/send-intent.js";

const logger = pino({ level: "silent" });
const NOW = 1_800_000_000_000;

describe("signing links", () => {
  let dir: string;
  let store: StoreBackend;
  let intents: SendIntents;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "send-intents-"));
    store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger, purgeIntervalMs: 0 });
    intents = createSendIntents({ store, logger });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const quoted = () =>
    intents.create({ chatId: 1, to: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu", amountAtomic: "1000000", usdtContract: "TR7", feeSun: "1", locale: "en" }, NOW);

  it("opens its intent while live, and is spent by exactly one of many at once", async () => {
    const { token } = (await intents.issueLink((await quoted()).intentId, NOW))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await intents.lookup(token, NOW)).ok).toBe(true);
    const spends = await Promise.all(Array.from({ length: 8 }, () => intents.spend(token, NOW + 1)));
    expect(spends.filter((s) => s.ok)).toHaveLength(1);
    expect(spends.filter((s) => !s.ok).map((s) => (s.ok ? "" : s.reason))).toEqual(Array(7).fill("used"));
    expect(await intents.lookup(token, NOW + 2)).toEqual({ ok: false, reason: "used" });
  });

  it("is dead after its time, and a new link kills the one before", async () => {
    const { intentId } = await quoted();
    const first = (await intents.issueLink(intentId, NOW))!.token;
    expect(await intents.lookup(first, NOW + SIGNING_LINK_TTL_MS)).toEqual({ ok: false, reason: "expired" });
    const second = (await intents.issueLink(intentId, NOW))!.token;
    expect(await intents.lookup(first, NOW)).toEqual({ ok: false, reason: "unknown" });
    expect((await intents.lookup(second, NOW)).ok).toBe(true);
  });

  it("keeps no working link in the store: only the token's hash", async () => {
    const { token } = (await intents.issueLink((await quoted()).intentId, NOW))!;
    const stored: string[] = [];
    for (const name of ["send-intents", "send-links"])
      for await (const [key, value] of store.namespace(name).entries()) stored.push(key, JSON.stringify(value));
    expect(stored.join(" ")).not.toContain(token);
  });

  it("gives no link for a cancelled intent", async () => {
    const { intentId } = await quoted();
    await intents.update(intentId, (i) => ({ ...i, state: "cancelled" }));
    expect(await intents.issueLink(intentId, NOW)).toBeUndefined();
  });
});
