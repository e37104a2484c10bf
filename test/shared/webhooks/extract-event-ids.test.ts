import { describe, expect, it } from "vitest";
import { extractEventIds, kindOfEvent } from "../../../src/shared/webhooks/extract-event-ids.js";

const order = "0123456789abcdef01234567";
const broadcast = "abcdefabcdefabcdefabcdef";
const energyOrder = "fedcba9876543210fedcba98";
const tx = "a".repeat(64);

describe("extractEventIds", () => {
  it("finds ids at the top level (flat layout)", () => {
    expect(extractEventIds({ event: "order.created", orderId: order, status: "pending" })).toEqual({
      event: "order.created",
      orderIds: [order],
      broadcastIds: [],
      txIds: [],
    });
  });

  it("finds ids under data and a nested record (nested layout)", () => {
    const ids = extractEventIds({
      id: "d1",
      event: "broadcast.accepted",
      data: { broadcast: { broadcastId: broadcast, txId: tx, energyOrderId: energyOrder } },
    });
    expect(ids).toEqual({ event: "broadcast.accepted", orderIds: [], broadcastIds: [broadcast], txIds: [tx] });
  });

  it("reads other spellings and a bare id under a named record", () => {
    expect(extractEventIds({ type: "order.fulfilled", payload: { order: { id: order } } }).orderIds).toEqual([order]);
    expect(extractEventIds({ data: { object: { broadcast_id: broadcast.toUpperCase(), tx_id: `0x${tx}` } } })).toMatchObject({
      broadcastIds: [broadcast],
      txIds: [tx],
    });
  });

  it("ignores values that are not ids", () => {
    expect(extractEventIds({ orderId: "nope", broadcastId: 42, txId: "short", id: order })).toMatchObject({ orderIds: [], broadcastIds: [], txIds: [] });
  });

  it("stops at the depth bound", () => {
    let deep: unknown = { orderId: order };
    for (let i = 0; i < 20; i += 1) deep = { next: deep };
    expect(extractEventIds(deep).orderIds).toEqual([]);
    expect(extractEventIds({ a: { b: { c: { orderId: order } } } }).orderIds).toEqual([order]);
  });

  it("survives hostile input: arrays, nulls, cycles of size", () => {
    const wide = { items: Array.from({ length: 10_000 }, () => ({ orderId: order })) };
    expect(extractEventIds(wide).orderIds).toEqual([order]);
    expect(extractEventIds(null)).toEqual({ event: undefined, orderIds: [], broadcastIds: [], txIds: [] });
    expect(extractEventIds("text").orderIds).toEqual([]);
  });

  it("maps event names to kinds", () => {
    expect(kindOfEvent("order.created")).toBe("order");
    expect(kindOfEvent("broadcast.failed")).toBe("broadcast");
    expect(kindOfEvent("account.updated")).toBeUndefined();
    expect(kindOfEvent(undefined)).toBeUndefined();
  });
});
