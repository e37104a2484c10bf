import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLimitSettingsStore } from "../../../src/shared/limits/limit-settings.js";
import { getMany } from "../../../src/platform/store/batch.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { KeyValue, StoreBackend } from "../../../src/platform/store/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";

let backend: StoreBackend;
/** The keys of each read the settings made of the store, one entry per store call. */
let calls: string[][];

/** The backend as the settings see it, with every read of their namespace written down. */
function counted(): StoreBackend {
  const namespace = (name: string): KeyValue => {
    const kv = backend.namespace(name);
    return {
      ...kv,
      get: (key) => (calls.push([key]), kv.get(key)),
      getVersioned: (key) => (calls.push([key]), kv.getVersioned(key)),
      getMany: (keys) => (calls.push([...keys]), getMany(kv, keys)),
    };
  };
  return { namespace } as unknown as StoreBackend;
}

beforeEach(async () => {
  backend = await openStore("sqlite://:memory:", { logger: captureLogger().logger });
  calls = [];
});
afterEach(async () => {
  await backend.close();
});

describe("a chat's limit settings", () => {
  it("of a linked chat: the account's limits with the chat's own time zone, read in one store call", async () => {
    const settings = createLimitSettingsStore({ store: counted(), logger: captureLogger().logger, accountOf: () => Promise.resolve("acc1") });
    await settings.update(7, (current) => ({ ...current, timeZone: "Europe/Moscow" }));
    await settings.update(8, (current) => ({ ...current, timeZone: "Asia/Shanghai" }));
    await settings.update(7, (current) => ({ ...current, dailyCapSun: "5000000" }));
    calls = [];
    expect(await settings.get(7)).toMatchObject({ dailyCapSun: "5000000", timeZone: "Europe/Moscow" });
    expect(await settings.get(8)).toMatchObject({ dailyCapSun: "5000000", timeZone: "Asia/Shanghai" });
    expect(calls).toEqual([
      ["7", "@acc1"],
      ["8", "@acc1"],
    ]);
  });

  it("of a chat with no account: its own record, one read", async () => {
    const settings = createLimitSettingsStore({ store: counted(), logger: captureLogger().logger, accountOf: () => Promise.resolve(undefined) });
    await settings.update(9, (current) => ({ ...current, dailyCapSun: "1000000" }));
    calls = [];
    expect(await settings.get(9)).toMatchObject({ dailyCapSun: "1000000" });
    expect(await settings.get(10)).toEqual({ frozen: false });
    expect(calls).toEqual([["9"], ["10"]]);
  });
});
