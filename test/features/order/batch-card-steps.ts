import { parse } from "csv-parse/sync";
import { expect } from "vitest";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";
import type { OrderHarness } from "../../bot/order-harness.js";

const { alice: A, bob: B, carol: C } = TEST_KEYS;
const RECEIVERS = [A.address, B.address, C.address];

/** A .csv of `count` lines, receivers taken in turn. */
export const batchCsv = (count: number) => Array.from({ length: count }, (_, i) => `${RECEIVERS[i % 3]!},50000,5m`).join("\n");

export const csvRows = (bytes: Buffer | undefined): string[][] => parse(bytes?.toString("utf8") ?? "", {});

/** What the batch card tests do in one chat of the harness `harness()` returns (started per test). */
export function batchCardWalk(harness: () => OrderHarness, chat: number) {
  const documentsOf = () =>
    harness()
      .tg.botMessages(chat)
      .filter((m) => m.document !== undefined);

  /** Sends a batch as a .csv and confirms its quote; returns the card (the quote message) and the bot's message count before Confirm. */
  async function confirmBatch(count: number): Promise<{ cardId: number; sentBefore: number }> {
    const h = harness();
    await h.linkChat(chat, { balanceSun: 10_000_000_000 });
    const user = h.user(chat);
    await user.send("/batch");
    await user.document({ bytes: batchCsv(count), fileName: "batch.csv", mimeType: "text/csv" });
    expect(user.lastText()).toContain(`Quote for ${count} orders`);
    const sentBefore = h.tg.botMessages(chat).length;
    const confirm = await user.press("✅ Confirm");
    const cardId = h.pressedMessage(confirm)!;
    return { cardId, sentBefore };
  }

  return { documentsOf, confirmBatch };
}
