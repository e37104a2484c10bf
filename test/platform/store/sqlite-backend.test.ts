import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import { captureLogger } from "./helpers.js";
import { describeStoreContract } from "./store-contract.js";

const dir = mkdtempSync(join(tmpdir(), "store-contract-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract(
  "SQLite store backend",
  {
    kind: "sqlite",
    url: `sqlite://${join(dir, "nested", "bot.sqlite")}`,
    open: () => openStore(`sqlite://${join(dir, "nested", "bot.sqlite")}`, { logger: captureLogger().logger }),
  },
  "never skipped",
);
