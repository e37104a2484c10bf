import { describe, expect, it } from "vitest";
import { queueModeFor } from "../../../src/platform/queue/queue-mode.js";

describe("queue mode, decided once from the store", () => {
  it("runs the push queue and the inbox on BullMQ over Redis, with the store's URL", () => {
    expect(queueModeFor({ kind: "redis" }, "redis://127.0.0.1:6379/2")).toEqual({ queue: "bullmq", redisUrl: "redis://127.0.0.1:6379/2" });
  });

  it("puts a deployment's STORAGE_PREFIX before BullMQ's own prefix, and leaves it as it was without one", () => {
    expect(queueModeFor({ kind: "redis" }, "redis://r", "bot-a/")).toEqual({ queue: "bullmq", redisUrl: "redis://r", bullPrefix: "bot-a/bull" });
    expect(queueModeFor({ kind: "redis" }, "redis://r", "")).toEqual({ queue: "bullmq", redisUrl: "redis://r" });
  });

  it("keeps the jobs in the store itself on SQLite and Postgres", () => {
    expect(queueModeFor({ kind: "sqlite" }, "sqlite://data/bot.sqlite")).toEqual({ queue: "local" });
    expect(queueModeFor({ kind: "postgres" }, "postgres://db/bot")).toEqual({ queue: "local" });
  });
});
