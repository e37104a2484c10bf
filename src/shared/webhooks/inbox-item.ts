import { jsonTooDeep } from "../../platform/json-depth.js";
import type { InboxItem, SignedContent } from "./types.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An inbox item as read back from the store or a queue job. Items written
 * before bodies were kept as text carry the parsed `payload` instead; they
 * were stored, so they serialize, and are turned into text here. Anything
 * else is undefined: the caller drops it with a log.
 */
export function readInboxItem(value: unknown): InboxItem | undefined {
  if (!isRecord(value)) return undefined;
  const { chatId, deliveryId, event, verified, receivedAt } = value;
  if (typeof chatId !== "number" || !Number.isSafeInteger(chatId) || typeof deliveryId !== "string") return undefined;
  let body: string;
  if (typeof value["body"] === "string") {
    body = value["body"];
  } else if ("payload" in value) {
    try {
      body = JSON.stringify(value["payload"]) ?? "null";
    } catch {
      return undefined;
    }
  } else {
    return undefined;
  }
  const signed = readSigned(value["signed"]);
  return {
    chatId,
    deliveryId,
    event: typeof event === "string" ? event : undefined,
    body,
    verified: verified === true,
    receivedAt: typeof receivedAt === "number" ? receivedAt : 0,
    ...(signed ? { signed } : {}),
  };
}

function readSigned(value: unknown): SignedContent | undefined {
  if (!isRecord(value)) return undefined;
  const { hash, untilMs } = value;
  return typeof hash === "string" && typeof untilMs === "number" ? { hash, untilMs } : undefined;
}

/** The dedup key of a delivery's signed content (see `InboxItem.signed`), beside `inboxKey`'s of its delivery id. */
export function signedKey(chatId: number, signed: SignedContent): string {
  return `${chatId}.s.${signed.hash.slice(0, 43)}`;
}

/** How long the mark of signed content is kept: until its signature is refused as stale, and at least a second. */
export function signedTtlMs(signed: SignedContent, nowMs: number): number {
  return Math.max(1_000, signed.untilMs - nowMs);
}

/**
 * Bodies the route has already checked and parsed, by item object: an item
 * processed in the process that accepted it is not parsed again. Never
 * stored; an item read back from the store or a queue is parsed as usual.
 */
const parsedBodies = new WeakMap<InboxItem, unknown>();

export function rememberParsedBody(item: InboxItem, payload: unknown): void {
  parsedBodies.set(item, payload);
}

/** The item's body parsed, or not ok when it is not JSON within the depth limit. */
export function parseItemBody(item: InboxItem): { ok: true; payload: unknown } | { ok: false } {
  if (parsedBodies.has(item)) return { ok: true, payload: parsedBodies.get(item) };
  return parseInboxBody(item.body);
}

/** The body parsed, or undefined when it is not JSON within the depth limit (checked first, without recursion). */
export function parseInboxBody(body: string): { ok: true; payload: unknown } | { ok: false } {
  if (jsonTooDeep(body)) return { ok: false };
  try {
    return { ok: true, payload: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}
