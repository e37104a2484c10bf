/**
 * The service does not document its webhook payload layout (service-api.md
 * section 6), so ids are searched for wherever they are: top level, under
 * `data`, inside a nested `order` / `broadcast` record, or deeper, within a
 * bounded depth and node count so a hostile body cannot make us walk forever.
 * The payload is never trusted beyond "which record to re-read".
 */
export interface ExtractedIds {
  /** Event name from the payload (`event`, `type`, `eventType`…), if any. */
  event: string | undefined;
  orderIds: string[];
  broadcastIds: string[];
  txIds: string[];
}

export interface ExtractOptions {
  maxDepth?: number;
  maxNodes?: number;
  maxIdsPerKind?: number;
}

const HEX24 = /^[0-9a-f]{24}$/i;
const HEX64 = /^(0x)?[0-9a-f]{64}$/i;

/** Key spellings, compared after lower-casing and dropping `_` and `-`. */
const ORDER_KEYS = new Set(["orderid"]);
const BROADCAST_KEYS = new Set(["broadcastid"]);
const TX_KEYS = new Set(["txid", "transactionid"]);
const EVENT_KEYS = ["event", "type", "eventType", "event_type", "eventName", "name"] as const;
/** A bare `id` counts when its object sits under one of these keys. */
const ORDER_PARENTS = new Set(["order"]);
const BROADCAST_PARENTS = new Set(["broadcast"]);

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function eventNameOf(payload: unknown): string | undefined {
  const candidates: unknown[] = [payload];
  if (isRecord(payload)) candidates.push(payload["data"], payload["payload"]);
  for (const node of candidates) {
    if (!isRecord(node)) continue;
    for (const key of EVENT_KEYS) {
      const value = node[key];
      if (typeof value === "string" && /^(order|broadcast)\.[a-z_]+$/i.test(value)) return value;
    }
  }
  return undefined;
}

/** Breadth first, so the shallowest occurrence of an id comes first. */
export function extractEventIds(payload: unknown, options: ExtractOptions = {}): ExtractedIds {
  const maxDepth = options.maxDepth ?? 6;
  const maxNodes = options.maxNodes ?? 2_000;
  const maxIds = options.maxIdsPerKind ?? 100;
  const orders = new Set<string>();
  const broadcasts = new Set<string>();
  const txs = new Set<string>();
  const add = (set: Set<string>, value: string) => {
    if (set.size < maxIds) set.add(value.toLowerCase().replace(/^0x/, ""));
  };

  const queue: { node: unknown; depth: number; parent: string }[] = [{ node: payload, depth: 0, parent: "" }];
  let visited = 0;
  while (queue.length > 0 && visited < maxNodes) {
    const { node, depth, parent } = queue.shift()!;
    visited += 1;
    if (Array.isArray(node)) {
      if (depth < maxDepth) for (const item of node) queue.push({ node: item, depth: depth + 1, parent });
      continue;
    }
    if (!isRecord(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      const k = normalizeKey(key);
      if (typeof value === "string") {
        if (ORDER_KEYS.has(k) && HEX24.test(value)) add(orders, value);
        else if (BROADCAST_KEYS.has(k) && HEX24.test(value)) add(broadcasts, value);
        else if (TX_KEYS.has(k) && HEX64.test(value)) add(txs, value);
        else if (k === "id" && HEX24.test(value)) {
          if (ORDER_PARENTS.has(parent)) add(orders, value);
          else if (BROADCAST_PARENTS.has(parent)) add(broadcasts, value);
        }
      } else if (typeof value === "object" && value !== null && depth < maxDepth) {
        queue.push({ node: value, depth: depth + 1, parent: k });
      }
    }
  }
  return { event: eventNameOf(payload), orderIds: [...orders], broadcastIds: [...broadcasts], txIds: [...txs] };
}

export type EventKind = "order" | "broadcast";

/** `order.created` → order; `broadcast.failed` → broadcast; anything else → undefined. */
export function kindOfEvent(event: string | undefined): EventKind | undefined {
  if (!event) return undefined;
  const prefix = event.toLowerCase().split(".")[0];
  return prefix === "order" || prefix === "broadcast" ? prefix : undefined;
}
