/**
 * Turns whatever the transport threw into what the queue does next. Read
 * structurally (grammY's GrammyError has `error_code`, `description`,
 * `parameters`) because src/shared must not import grammy.
 */
export type PushFailure =
  | { kind: "delivered"; reason: string }
  | { kind: "rate-limited"; retryAfterSec: number }
  | { kind: "unreachable"; reason: string }
  | { kind: "permanent"; reason: string }
  | { kind: "transient"; reason: string };

interface TelegramErrorShape {
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

const UNREACHABLE = [
  "bot was blocked",
  "user is deactivated",
  "chat not found",
  "bot was kicked",
  "bot is not a member",
  "bot can't initiate conversation",
  "group chat was deleted",
];

export function classifyPushError(error: unknown): PushFailure {
  const shape = (typeof error === "object" && error !== null ? error : {}) as TelegramErrorShape;
  const code = typeof shape.error_code === "number" ? shape.error_code : undefined;
  const description = typeof shape.description === "string" ? shape.description : String(error);
  const lower = description.toLowerCase();
  if (code === undefined) return { kind: "transient", reason: description.slice(0, 200) };
  if (code === 429) {
    const retryAfter = Number(shape.parameters?.retry_after);
    return { kind: "rate-limited", retryAfterSec: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1 };
  }
  // Editing to identical content means the chat already shows what we wanted.
  if (lower.includes("message is not modified")) return { kind: "delivered", reason: description };
  if (code === 403 || UNREACHABLE.some((text) => lower.includes(text))) {
    return { kind: "unreachable", reason: description };
  }
  if (code >= 500 || code === 408 || code === 409) return { kind: "transient", reason: description };
  return { kind: "permanent", reason: description };
}

/** Exponential backoff with ±20 % jitter so retries of many chats do not align. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}
