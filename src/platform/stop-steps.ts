import type { Logger } from "pino";

/** One named step of a shutdown. */
export type StopStep = readonly [name: string, stop: () => Promise<unknown>];

/**
 * Runs the steps in order; a step that fails is logged and the next one still
 * runs, so one broken part never keeps the others (or the store) open.
 */
export async function runStopSteps(logger: Logger, steps: readonly StopStep[]): Promise<void> {
  for (const [name, stop] of steps) {
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error, step: name }, "shutdown step failed");
    }
  }
}
