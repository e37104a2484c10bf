/**
 * The update's logger is built on first use, with every binding the
 * middlewares gave it (update, chat, handler), and not at all when nothing logs.
 */
import { pino, type Logger } from "pino";
import { describe, expect, it } from "vitest";
import { addLogBindings, bindLogger, logsAt } from "../../src/bot/helpers/lazy-logger.js";

function recordingLogger(level: string): { logger: Logger; lines: Record<string, unknown>[]; children: () => number } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  let made = 0;
  const child = Object.getPrototypeOf(logger) as Pick<Logger, "child">;
  // Children inherit from their parent: counting on the root counts every child built below it.
  logger.child = function (this: Logger, ...args: Parameters<Logger["child"]>) {
    made += 1;
    return child.child.apply(this, args);
  } as Logger["child"];
  return { logger, lines, children: () => made };
}

describe("the lazily built update logger", () => {
  it("carries the update's and the handler's bindings once something logs", () => {
    const { logger, lines } = recordingLogger("info");
    const ctx = {} as { logger: Logger };
    bindLogger(ctx, logger, { update_id: 7, chat_id: 42 });
    addLogBindings(ctx, { handler: "command-help" });
    ctx.logger.warn("something");
    expect(lines).toMatchObject([{ update_id: 7, chat_id: 42, handler: "command-help", msg: "something" }]);
  });

  it("builds no child logger for an update that logs nothing", () => {
    const { logger, children } = recordingLogger("info");
    const ctx = {} as { logger: Logger };
    bindLogger(ctx, logger, { update_id: 8 });
    addLogBindings(ctx, { handler: "command-prices" });
    expect(logsAt(ctx, "debug")).toBe(false);
    expect(children()).toBe(0);
  });

  it("keeps a logger assigned over it", () => {
    const { logger, lines } = recordingLogger("info");
    const ctx = {} as { logger: Logger };
    bindLogger(ctx, logger, { update_id: 9 });
    ctx.logger = logger.child({ replaced: true });
    ctx.logger.info("after");
    expect(lines).toMatchObject([{ replaced: true, msg: "after" }]);
    expect(logsAt(ctx, "debug")).toBe(false);
  });
});
