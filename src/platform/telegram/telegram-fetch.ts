import type { Readable } from "node:stream";
import { Agent, request } from "undici";

/** What grammY's API client passes to `fetch`: JSON as a string, multipart as a stream. */
interface BotApiRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Readable;
  signal?: AbortSignal;
}

/** grammY's `client.fetch`, as far as grammY uses it: it reads the answer's JSON and nothing else. */
export type BotApiFetch = (url: string | URL, init?: BotApiRequest) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export interface TelegramFetch {
  /** Every Bot API call of the bot and the push queue goes through it. */
  fetch: BotApiFetch;
  close(): Promise<void>;
}

/**
 * The Bot API client's HTTP over undici (the project's HTTP client) instead
 * of grammY's default, node-fetch over `node:http`: the Request, Headers,
 * Body and agent bookkeeping of node-fetch were about an eighth of the
 * process's time per update. grammY reads nothing of the answer but its JSON
 * (`res.json()`, whatever the status: the Bot API's errors are JSON too) and
 * aborts through the signal it passes (its per-call timeout, a stopping
 * runner); a body that is not JSON fails the call as it did before.
 * Multipart uploads (documents, photos) arrive as a stream and are sent
 * chunked.
 */
export function createTelegramFetch(): TelegramFetch {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const fetch: BotApiFetch = async (url, init = {}) => {
    const { statusCode, body } = await request(String(url), {
      dispatcher: agent,
      method: init.method === "GET" ? "GET" : "POST",
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    return { ok: statusCode >= 200 && statusCode < 300, status: statusCode, json: () => body.json() };
  };
  return { fetch, close: () => agent.close() };
}
