import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { createAddressBook } from "../../../src/shared/address-book.js";
import { createPendingConfirmations } from "../../../src/shared/confirmations/pending-confirmations.js";
import type { TrackInput } from "../../../src/shared/tracking/tracker.js";
import { createOrderHistory } from "../../../src/shared/orders/order-history.js";
import { createQuoteStore } from "../../../src/shared/orders/quote-store.js";
import { createServiceClient } from "../../../src/platform/service/create-service-client.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../../testkit/simulator/index.js";

/** A simulator, a client and a SQLite store in a temp dir, for the domain tests of orders and tracking. */
export async function startSimEnv(options: SimulatorOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), "orders-test-"));
  const url = `sqlite://${join(dir, "bot.sqlite")}`;
  const logger = pino({ level: "silent" });
  const sim: Simulator = await startSimulator({ orderStepMs: 20, broadcastStepMs: 20, ...options });
  // The simulator shares the test's process: on a loaded machine an answer can take well over a second, and a client
  // timeout there fails a test about something else. A hang fault still ends within the total, 6 s.
  const service = createServiceClient({ baseUrl: sim.baseUrl, logger, attemptTimeoutMs: 3_000, totalTimeoutMs: 6_000, backoffBaseMs: 5, backoffMaxMs: 20 });
  /** For the calls that set a test up, whose subject is not how long the service may take to answer. */
  const patientService = createServiceClient({
    baseUrl: sim.baseUrl,
    logger,
    attemptTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
    backoffBaseMs: 5,
    backoffMaxMs: 20,
  });
  const stores: StoreBackend[] = [];
  const open = async () => {
    const store = await openStore(url, { logger, purgeIntervalMs: 0 });
    stores.push(store);
    /** What was handed to tracking, in order (the tracker itself is tested on its own). */
    const tracked: TrackInput[] = [];
    return {
      store,
      tracked,
      tracker: { track: (input: TrackInput) => Promise.resolve(void tracked.push(input)) },
      pending: createPendingConfirmations({ store, logger }),
      quotes: createQuoteStore({ store, logger }),
      history: createOrderHistory({ store, logger }),
      addressBook: createAddressBook({ store, logger }),
    };
  };
  return {
    sim,
    service,
    patientService,
    logger,
    open,
    async stop() {
      await service.close();
      await patientService.close();
      for (const s of stores) await s.close();
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type SimEnv = Awaited<ReturnType<typeof startSimEnv>>;

export function debits(sim: Simulator, accountId: string): number[] {
  return sim
    .ledger(accountId)
    .filter((e) => e.kind === "debit")
    .map((e) => e.amountSun);
}
