import type { OrderHistory } from "../orders/order-history.js";
import type { ServiceClient } from "../../platform/service/client.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { TrackedRecord } from "./tracker.js";

export interface ReadRecordDeps {
  service: Pick<ServiceClient, "getOrder" | "getBroadcast">;
  history: Pick<OrderHistory, "get">;
}

/**
 * The live record behind an id of /track: the chat's history says which
 * kind, otherwise order then broadcast. 404 → undefined; any other service
 * error is thrown (the caller says what it means).
 */
export async function readRecord(
  deps: ReadRecordDeps,
  apiKey: string,
  chatId: number,
  id: string,
  kind?: "order" | "broadcast",
): Promise<TrackedRecord | undefined> {
  const known = kind ?? ((await deps.history.get(chatId, "broadcast", id)) ? "broadcast" : undefined);
  const tryOrder = known !== "broadcast";
  try {
    if (tryOrder) return { kind: "order", record: await deps.service.getOrder(apiKey, id) };
  } catch (error) {
    if (!(ServiceError.isInstance(error) && error.isNotFound) || kind === "order") throw error;
  }
  try {
    return { kind: "broadcast", record: await deps.service.getBroadcast(apiKey, id) };
  } catch (error) {
    if (ServiceError.isInstance(error) && error.isNotFound) return undefined;
    throw error;
  }
}
