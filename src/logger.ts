import { pino, type Logger, type DestinationStream } from "pino";

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
}

export function createLogger({ level, destination }: LoggerOptions): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    hooks: { streamWrite: (line: string) => line.replace(BOT_TOKEN_IN_URL, "bot[redacted]") },
  };
  return destination ? pino(options, destination) : pino(options);
}
