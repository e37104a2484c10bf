import { describe, it } from "vitest";
import { acceptsSignedBatch } from "./signed-batch.js";

// Load-shaped: `npm test` runs the same batch at 40 orders (hooks-batch.test.ts).
describe("POST /hooks/:routeId under a batch, at volume", () => {
  it("accepts every signed webhook of a 100-order batch at the first attempt, past what the inbox holds in memory, and processes each event once", async () => {
    await acceptsSignedBatch(100);
  }, 180_000);
});
