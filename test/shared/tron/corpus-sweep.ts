import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignedTransaction } from "../../../src/shared/tron/index.js";
import { ownTime, printRawData, type CorpusEntry } from "../../support/tron-corpus.js";

const sha256 = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");

/**
 * The mutation sweep over the corpus of real transactions: each byte of the signed bytes and of each
 * signature flipped, with the txID and the printed JSON kept, recomputed or made consistent; no mutant
 * may be accepted. `stride` 1 tries every position; `stride` n every n-th, shifted by one per
 * transaction, so a corpus of at least n transactions still flips bytes at every offset.
 */
export function describeMutationSweep(corpus: CorpusEntry[], stride: number): void {
  // Pure CPU: on a 2-core machine shared with other workers one transaction's sweep can outlast the
  // default 20 s; the limit is only a safety net.
  describe("mutation sweep over the corpus", { timeout: 120_000 }, () => {
    // One test per transaction, so a failure names the transaction.
    const totals = { tried: 0, wronglyAccepted: 0 };

    it.each(corpus.map((e, k) => [e.file, e, k] as const))(
      `accepts no mutant of %s (each byte of raw_data_hex and of each signature flipped, every ${stride === 1 ? "position" : `${stride}th position`})`,
      (_file, e, k) => {
        const swept = (i: number) => (i + k) % stride === 0;
        const accepted: string[] = [];
        const check = (tx: unknown, what: string) => {
          totals.tried++;
          if (verifySignedTransaction(tx, ownTime(e)).ok) {
            totals.wronglyAccepted++;
            accepted.push(what);
          }
        };
        const t = e.transaction;
        const raw = Buffer.from(t.raw_data_hex, "hex");
        for (let i = 0; i < raw.length; i++) {
          if (!swept(i)) continue;
          raw[i]! ^= 0xff;
          const hex = raw.toString("hex");
          raw[i]! ^= 0xff;
          const txID = sha256(hex);
          check({ ...t, raw_data_hex: hex }, `raw byte ${i}, txID and JSON kept`);
          check({ ...t, raw_data_hex: hex, txID }, `raw byte ${i}, txID recomputed`);
          let printed: Record<string, unknown> | undefined;
          try {
            printed = printRawData(hex);
          } catch {
            printed = undefined; // unreadable bytes: no consistent JSON exists
          }
          if (printed) check({ ...t, raw_data_hex: hex, txID, raw_data: printed }, `raw byte ${i}, txID and JSON consistent`);
        }
        for (const [s, sig] of t.signature.entries()) {
          for (let i = 0; i < sig.length / 2; i++) {
            if (!swept(i)) continue;
            const flipped = (Number.parseInt(sig.slice(2 * i, 2 * i + 2), 16) ^ 0xff).toString(16).padStart(2, "0");
            check(
              { ...t, signature: t.signature.map((x, j) => (j === s ? sig.slice(0, 2 * i) + flipped + sig.slice(2 * i + 2) : x)) },
              `signature ${s} byte ${i}`,
            );
          }
        }
        expect(accepted).toEqual([]);
      },
    );

    it("tried every mutant and accepted none", async ({ annotate }) => {
      await annotate(`mutants tried: ${totals.tried}, wrongly accepted: ${totals.wronglyAccepted}`);
      const bytes = corpus.reduce((sum, e) => sum + e.transaction.raw_data_hex.length / 2, 0);
      const sigBytes = corpus.reduce((sum, e) => sum + e.transaction.signature.length * 65, 0);
      expect(totals.tried).toBeGreaterThan(Math.floor((2 * bytes + sigBytes) / stride));
      expect(totals.wronglyAccepted).toBe(0);
    });
  });
}
