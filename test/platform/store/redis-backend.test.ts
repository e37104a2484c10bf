import { openStore } from "../../../src/platform/store/open-store.js";
import { captureLogger } from "./helpers.js";
import { describeStoreContract } from "./store-contract.js";

const url = process.env["TEST_REDIS_URL"];

describeStoreContract(
  "Redis store backend",
  url ? { kind: "redis", url, open: () => openStore(url, { logger: captureLogger().logger }) } : undefined,
  "TEST_REDIS_URL is not set (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)",
);
