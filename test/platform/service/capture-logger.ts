import { pino, type Logger } from "pino";

export interface CapturedLogger {
  logger: Logger;
  /** Every line written so far, raw JSON text. */
  lines: string[];
  /** Parsed lines. */
  records(): Record<string, unknown>[];
}

/** A real pino logger whose output lands, synchronously, in an array. */
export function captureLogger(level = "debug"): CapturedLogger {
  const lines: string[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split("\n")) if (line) lines.push(line);
    },
  };
  const logger = pino({ level }, destination);
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}
