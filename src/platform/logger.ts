import { pino, type DestinationStream, type LogFn, type Logger, type LoggerOptions as LoggerOptions_ } from "pino";

/** Paths whose values must never reach a log line, whatever the caller passes. */
export const REDACTED_PATHS = [
  "apiKey",
  "*.apiKey",
  "webhookSecret",
  "*.webhookSecret",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.headers.authorization",
  "encryptionKey",
  "*.encryptionKey",
];

/**
 * A Bot API URL carries the token (`/bot<id>:<secret>/method`), and grammY's
 * network errors keep the fetch error that quotes it: scrubbed from every line.
 */
const BOT_TOKEN_IN_URL = /bot\d+:[A-Za-z0-9_-]{20,}/g;

export interface LoggerOptions {
  level: string;
  /** Where lines go; defaults to stdout. Tests pass a capturing stream. */
  destination?: DestinationStream;
  /**
   * Lines (below fatal) whose `err` this answers true for are written at debug: an outage told once
   * elsewhere is not repeated by every worker that meets it.
   */
  demote?: (err: unknown) => boolean;
}

const DEBUG = 20;
const FATAL = 60;

export function createLogger({ level, destination, demote }: LoggerOptions): Logger {
  const options: LoggerOptions_ = {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    hooks: {
      streamWrite: (line: string) => line.replace(BOT_TOKEN_IN_URL, "bot[redacted]"),
      ...(demote && {
        logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn, levelValue: number) {
          const first: unknown = args[0];
          if (levelValue > DEBUG && levelValue < FATAL && typeof first === "object" && first !== null && "err" in first && demote(first.err)) {
            this.debug(...args);
            return;
          }
          method.apply(this, args);
        },
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
