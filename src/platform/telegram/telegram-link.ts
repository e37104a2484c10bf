import { HttpError, type ApiCallFn, type Transformer } from "grammy";
import type { Logger } from "pino";

/** grammY types its signals with the abort-controller polyfill's class; at run time it only listens to "abort". */
type ApiSignal = NonNullable<Parameters<ApiCallFn>[2]>;
export function apiSignal(signal: AbortSignal): ApiSignal {
  return signal as unknown as ApiSignal;
}

export type TelegramState = "ok" | "down" | "unknown";

/** Calls the bot cannot work without: they are retried here, with a log line per failure, until they pass or stop. */
const INTAKE_METHODS: ReadonlySet<string> = new Set(["getMe", "getUpdates", "deleteWebhook", "setWebhook"]);

export interface TelegramLinkDeps {
  apiRoot: string;
  /** Only to scrub it from a failure's reason: the request URL carries it. */
  token: string;
  logger: Logger;
  /** Backoff between attempts of an intake call: 1 s, doubling, at most 60 s. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Budget of one getMe / deleteWebhook / setWebhook; getUpdates gets its long-poll timeout plus this. Default 10 s. */
  callTimeoutMs?: number;
}

export interface TelegramLink {
  /** Install closest to the network (before auto-retry), so it sees every attempt. */
  transformer: Transformer;
  /** The outcome of the latest call, for /readyz. */
  state(): TelegramState;
}

/**
 * Telegram unreachable (connection refused, DNS, no answer) is said within
 * seconds, naming the API root and never the token, and retried with backoff;
 * grammY and auto-retry would otherwise retry such calls silently, getMe with
 * its default 500 s timeout per attempt. An answer from Telegram (401, 409, 429)
 * is passed on untouched: those are the caller's to judge.
 */
export function createTelegramLink(deps: TelegramLinkDeps): TelegramLink {
  const minDelayMs = deps.minDelayMs ?? 1_000;
  const maxDelayMs = deps.maxDelayMs ?? 60_000;
  const callTimeoutMs = deps.callTimeoutMs ?? 10_000;
  const log = deps.logger.child({ component: "telegram" });
  let state: TelegramState = "unknown";

  function reasonOf(error: HttpError, timedOut: boolean, budgetMs: number): string {
    if (timedOut) return `no answer within ${budgetMs / 1000} s`;
    const cause = error.error as { code?: unknown; message?: unknown } | undefined;
    // node-fetch: "request to <url with token> failed, reason: connect ECONNREFUSED 127.0.0.1:1".
    const text = typeof cause?.message === "string" ? (/reason: (.*)$/.exec(cause.message)?.[1] ?? cause.message) : error.message;
    const reason = typeof cause?.code === "string" && !text.includes(cause.code) ? `${cause.code}: ${text}` : text;
    return reason.split(deps.token).join("[redacted]").slice(0, 200);
  }

  const transformer: Transformer = async (prev, method, payload, apiCallSignal) => {
    const signal = apiCallSignal as unknown as AbortSignal | undefined;
    if (!INTAKE_METHODS.has(method)) {
      try {
        const res = await prev(method, payload, apiCallSignal);
        state = res.ok || res.error_code < 500 ? "ok" : "down";
        return res;
      } catch (error) {
        if (error instanceof HttpError && !signal?.aborted) state = "down";
        throw error;
      }
    }
    const longPollMs = method === "getUpdates" ? Number((payload as { timeout?: unknown }).timeout ?? 0) * 1000 : 0;
    const budgetMs = longPollMs + callTimeoutMs;
    let delayMs = minDelayMs;
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw abortError(signal);
      // By hand, not AbortSignal.any: the runner's signal is the abort-controller polyfill's, which any() does not follow.
      const attemptController = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptController.abort();
      }, budgetMs);
      const onAbort = (): void => attemptController.abort();
      signal?.addEventListener("abort", onAbort);
      let reason: string;
      try {
        const res = await prev(method, payload, apiSignal(attemptController.signal));
        if (res.ok || res.error_code < 500) {
          if (attempt > 1) log.info({ apiRoot: deps.apiRoot, method, attempts: attempt }, `Telegram reachable again at ${deps.apiRoot}`);
          state = "ok";
          return res;
        }
        reason = `answered ${res.error_code} ${res.description}`;
      } catch (error) {
        if (signal?.aborted || !(error instanceof HttpError)) throw error;
        reason = reasonOf(error, timedOut, budgetMs);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
      state = "down";
      log.warn(
        { apiRoot: deps.apiRoot, method, attempt, retryInMs: delayMs, reason },
        `Telegram unreachable at ${deps.apiRoot} (${method}: ${reason}); retrying in ${delayMs / 1000} s`,
      );
      await pause(delayMs, signal);
      delayMs = Math.min(maxDelayMs, delayMs * 2);
    }
  };

  return { transformer, state: () => state };
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error("Telegram call aborted");
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
