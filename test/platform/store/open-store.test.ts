import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import { captureLogger } from "./helpers.js";

describe("openStore", () => {
  it("refuses an unsupported URL scheme, naming the accepted ones", async () => {
    await expect(openStore("mysql://u:pw@localhost/db", { logger: captureLogger().logger })).rejects.toThrow(
      /unsupported store URL mysql:\/\/u:\*\*\*@localhost\/db: use sqlite:\/\//,
    );
  });

  it("refuses a Postgres table name that is not a plain identifier, before connecting", async () => {
    await expect(openStore("postgres://u@127.0.0.1:1/db?table=x;drop", { logger: captureLogger().logger })).rejects.toThrow(/invalid Postgres table name/);
  });

  it("gives up quickly on an unreachable Redis and never shows its password", async () => {
    const log = captureLogger();
    const error = await openStore("redis://user:hunter2@127.0.0.1:1", { logger: log.logger }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("cannot connect to Redis at redis://user:***@127.0.0.1:1");
    expect(JSON.stringify(log.records())).not.toContain("hunter2");
  });

  it("gives up on an unreachable Postgres and never shows its password", async () => {
    const log = captureLogger();
    const error = await openStore("postgres://user:hunter2@127.0.0.1:1/db", { logger: log.logger }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("cannot open Postgres store at postgres://user:***@127.0.0.1:1/db");
    expect(JSON.stringify(log.records())).not.toContain("hunter2");
  });
});
