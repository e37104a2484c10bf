import type { Bindings, Logger } from "pino";

/** The logger each update's bindings start from, to ask its level without building a child. */
const roots = new WeakMap<object, Logger>();

/**
 * Gives `ctx.logger` a child of `parent` with `bindings`, built on first use:
 * most updates log nothing, and a pino child per update (and one more per
 * handler) was a large share of the garbage collected per update.
 */
export function bindLogger(ctx: { logger: Logger }, parent: Logger | (() => Logger), bindings: Bindings): void {
  if (typeof parent !== "function") roots.set(ctx, parent);
  const base = typeof parent === "function" ? parent : () => parent;
  let built: Logger | undefined;
  Object.defineProperty(ctx, "logger", {
    configurable: true,
    enumerable: true,
    get: () => (built ??= base().child(bindings)),
    set: (value: Logger) => {
      built = value;
    },
  });
}

/** Adds `bindings` to the context's logger, still without building it. */
export function addLogBindings(ctx: { logger: Logger }, bindings: Bindings): void {
  const descriptor = Object.getOwnPropertyDescriptor(ctx, "logger");
  const built = descriptor?.get ? undefined : ctx.logger;
  bindLogger(ctx, descriptor?.get ? (descriptor.get.bind(ctx) as () => Logger) : () => built as Logger, bindings);
}

/** Whether a line at `level` would be written for this update (asked of its root, nothing built). */
export function logsAt(ctx: { logger: Logger }, level: "debug" | "trace"): boolean {
  return (roots.get(ctx) ?? ctx.logger).isLevelEnabled(level);
}
