import { autoRetry } from "@grammyjs/auto-retry";
import type { Transformer } from "grammy";

/** How the bot's own calls ride out Telegram's hiccups; the defaults are production's. */
export interface TelegramRetryOptions {
  /** First wait after a 5xx answer, doubled after each (auto-retry's fixed 3 s, 6 s, 12 s). */
  serverErrorDelayMs?: number;
}

const MAX_RETRIES = 3;
/** A retry_after longer than this is passed on to the caller instead of waited out. */
const MAX_RETRY_AFTER_SECONDS = 10;
const SERVER_ERROR_DELAY_MS = 3_000;

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Request aborted while waiting between retries"));
    const abort = () => {
      clearTimeout(timer);
      reject(new Error("Request aborted while waiting between retries"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * auto-retry for retry_after and lost connections, and its backoff after a
 * 5xx with the first wait a parameter (the plugin's is fixed at 3 s): the
 * suite's Telegram storms are then waited out in milliseconds.
 */
export function telegramRetry(options: TelegramRetryOptions = {}): Transformer[] {
  const firstDelayMs = options.serverErrorDelayMs ?? SERVER_ERROR_DELAY_MS;
  const serverErrors: Transformer = async (prev, method, payload, apiSignal) => {
    const signal = apiSignal as unknown as AbortSignal | undefined;
    let delayMs = firstDelayMs;
    for (let retries = 0; ; retries += 1) {
      const result = await prev(method, payload, apiSignal);
      if (result.ok || result.error_code < 500 || retries >= MAX_RETRIES) return result;
      await pause(delayMs, signal);
      delayMs *= 2;
    }
  };
  // Innermost first: auto-retry sees each attempt; the 5xx loop around it repeats the whole call.
  return [autoRetry({ maxRetryAttempts: MAX_RETRIES, maxDelaySeconds: MAX_RETRY_AFTER_SECONDS, rethrowInternalServerErrors: true }), serverErrors];
}
