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

export interface LoggerOptions {
  level: string;
  /** Where lines go; defaults to stdout. Tests pass a capturing stream. */
  destination?: DestinationStream;
}

export function createLogger({ level, destination }: LoggerOptions): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}
