import { describe, expect, it, vi } from "vitest";
import type { Transformer } from "grammy";
import { telegramRetry } from "../../src/bot/middlewares/telegram-retry.js";

type Prev = Parameters<Transformer>[0];

/** Telegram answering each call with the next of `answers` (the last one repeats). */
function telegram(answers: { ok: boolean; error_code?: number; description?: string }[]) {
  const calls: number[] = [];
  const prev = (() => {
    calls.push(calls.length);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return Promise.resolve(
      answer.ok ? { ok: true, result: true } : { ok: false, error_code: answer.error_code, description: answer.description ?? "Bad Gateway" },
    );
  }) as unknown as Prev;
  return { prev, calls };
}

/** The transformers as grammY chains them: the first installed closest to the network. */
function chain(transformers: Transformer[], prev: Prev): Prev {
  return transformers.reduce<Prev>((inner, t) => (method, payload, signal) => t(inner, method, payload, signal), prev);
}

describe("the bot's retries after Telegram's 5xx", () => {
  it("waits a 5xx storm out on its backoff and returns the answer that went through", async () => {
    const tg = telegram([{ ok: false, error_code: 502 }, { ok: false, error_code: 500 }, { ok: true }]);
    const call = chain(telegramRetry({ serverErrorDelayMs: 1 }), tg.prev);
    const result = await call("sendMessage", { chat_id: 1, text: "hi" });
    expect(result.ok).toBe(true);
    expect(tg.calls).toHaveLength(3);
  });

  it("gives up after three retries and returns Telegram's last error to the caller", async () => {
    const tg = telegram([{ ok: false, error_code: 503, description: "Service Unavailable" }]);
    const call = chain(telegramRetry({ serverErrorDelayMs: 1 }), tg.prev);
    const result = await call("sendMessage", { chat_id: 1, text: "hi" });
    expect(result).toMatchObject({ ok: false, error_code: 503 });
    expect(tg.calls).toHaveLength(4);
  });

  it("never retries a 4xx refusal", async () => {
    const tg = telegram([{ ok: false, error_code: 400, description: "Bad Request: message to edit not found" }]);
    const result = await chain(telegramRetry({ serverErrorDelayMs: 1 }), tg.prev)("editMessageText", {});
    expect(result).toMatchObject({ ok: false, error_code: 400 });
    expect(tg.calls).toHaveLength(1);
  });

  it("stops waiting when the call is aborted", async () => {
    const tg = telegram([{ ok: false, error_code: 502 }]);
    const controller = new AbortController();
    const call = chain(telegramRetry({ serverErrorDelayMs: 60_000 }), tg.prev);
    const pending = call("sendMessage", {} as never, controller.signal as never);
    await vi.waitFor(() => expect(tg.calls).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toThrow(/aborted/);
  });
});
