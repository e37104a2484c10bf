import { describe, expect, it } from "vitest";
import { pino } from "pino";
import { createRedisClient } from "../../../src/platform/store/redis-store.js";
import { isStoreUnreachable } from "../../../src/platform/store/store-outage.js";
import { openStore } from "../../../src/platform/store/open-store.js";
import { freePort } from "../../support/redis-server.js";

describe("isStoreUnreachable: an outage to wait out, not a refusal to tell", () => {
  it("knows a refused connection, however the driver wraps it", async () => {
    const port = await freePort();
    const client = createRedisClient({ url: `redis://127.0.0.1:${port}`, initialAttempts: 1 });
    client.on("error", () => undefined);
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isStoreUnreachable(error)).toBe(true);
    const opened = await openStore(`redis://127.0.0.1:${port}`, { logger: pino({ level: "silent" }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isStoreUnreachable(opened)).toBe(true);
  });

  it("knows Postgres shutting down or terminating a session, and pg's own words", () => {
    expect(isStoreUnreachable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isStoreUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isStoreUnreachable(new Error("cannot open", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) }))).toBe(true);
  });

  it("does not take a refusal for an outage", () => {
    expect(isStoreUnreachable(Object.assign(new Error('password authentication failed for user "bot"'), { code: "28P01" }))).toBe(false);
    expect(isStoreUnreachable(new Error("WRONGPASS invalid username-password pair"))).toBe(false);
    expect(isStoreUnreachable(undefined)).toBe(false);
  });
});
