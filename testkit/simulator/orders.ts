import { SimError, fail } from "./errors.js";
import { bodyHash, IdempotencyStore } from "./idempotency.js";
import { validateIdempotencyKey, validateOrderBody, type ValidItem } from "./order-validation.js";
import { hexId, type ApiKeyRecord } from "./state/accounts.js";
import { isoNow, targetOf, type SimContext, type SimResponse } from "./context.js";

export interface OrderRecord {
  orderId: string;
  status: string;
  receiver: string;
  resource: "ENERGY";
  resourceAmount: number;
  remainAmount: number;
  isMatching: boolean;
  durationSec: number;
  totalCostSun: number;
  createdAt: string;
}

interface OrderEntity {
  record: OrderRecord;
  accountId: string;
  apiKey: string;
  /** A lifecycle step timer is pending. */
  armed: boolean;
}

const NEXT_STATUS: Record<string, string | undefined> = { pending: "matching", matching: "executing", executing: "fulfilled" };

/** POST/GET /v1/orders with the guards, idempotency rules and lifecycle of sections 3 and 4. */
export class OrderBook {
  private readonly orders = new Map<string, OrderEntity>();
  private readonly idempotency: IdempotencyStore;

  constructor(private readonly ctx: SimContext) {
    this.idempotency = new IdempotencyStore(ctx.now);
  }

  async create(key: ApiKeyRecord, idempotencyKey: string | undefined, body: unknown): Promise<SimResponse> {
    const idem = validateIdempotencyKey(idempotencyKey);
    const items = validateOrderBody(body, this.ctx.pricing);
    this.checkDeliverable(items);

    const scope = key.accountId;
    const reservation = this.idempotency.reserve(scope, idem, bodyHash(body));
    switch (reservation.kind) {
      case "replay":
        return { status: 200, body: reservation.result };
      case "in_progress":
        throw new SimError(
          409,
          "idempotency.in_progress",
          "A request with this Idempotency-Key is still being processed",
          {},
          {
            "Retry-After": "2",
          },
        );
      case "key_reuse":
        throw new SimError(422, "idempotency.key_reuse", "Idempotency-Key was already used with a different request body");
      case "reserved":
        break;
    }

    await this.ctx.scheduler.sleep(this.ctx.orderProcessingMs);
    const account = this.ctx.accounts.account(key.accountId);
    const total = items.reduce((sum, i) => sum + i.amount * i.unitPriceSun, 0);
    const available = account.hasWallet ? account.balanceSun : 0;
    if (!account.hasWallet || total > available) {
      this.idempotency.release(scope, idem);
      throw fail.insufficientBalance(total, available);
    }
    const created = items.map((item) => this.place(key, item));
    const result = { orders: created.map((r) => ({ ...r })) };
    this.idempotency.complete(scope, idem, result);
    for (const r of created) this.ctx.webhooks.send(targetOf(key), "order.created", "order", { ...r });
    return { status: 201, body: result };
  }

  /** Guard 2: every receiver is an activated account and not a contract. */
  private checkDeliverable(items: ValidItem[]): void {
    for (const { toAddress } of items) {
      if (this.ctx.chain.isContract(toAddress)) {
        throw new SimError(422, "order.receiver_undeliverable", `Receiver ${toAddress} is a contract`);
      }
      if (!this.ctx.chain.isActivated(toAddress)) {
        throw new SimError(422, "order.receiver_undeliverable", `Receiver ${toAddress} is not an activated account`);
      }
    }
  }

  private place(key: ApiKeyRecord, item: ValidItem): OrderRecord {
    const record: OrderRecord = {
      orderId: hexId(),
      status: "pending",
      receiver: item.toAddress,
      resource: "ENERGY",
      resourceAmount: item.amount,
      remainAmount: item.amount,
      isMatching: true,
      durationSec: item.durationSec,
      totalCostSun: item.amount * item.unitPriceSun,
      createdAt: isoNow(this.ctx),
    };
    this.ctx.accounts.debit(key.accountId, record.totalCostSun, record.orderId);
    this.ctx.statusChanges.push({ kind: "order", id: record.orderId, status: record.status, at: this.ctx.now() });
    this.orders.set(record.orderId, { record, accountId: key.accountId, apiKey: key.apiKey, armed: false });
    this.scheduleStep(record.orderId);
    return record;
  }

  private scheduleStep(orderId: string): void {
    const e = this.orders.get(orderId);
    if (!e || e.armed) return;
    e.armed = true;
    this.ctx.scheduler.step(this.ctx.orderStepMs, () => {
      e.armed = false;
      const next = NEXT_STATUS[e.record.status];
      if (next === undefined) return;
      this.apply(e, next);
      if (NEXT_STATUS[next] !== undefined) this.scheduleStep(orderId);
    });
  }

  private apply(e: OrderEntity, status: string): void {
    const r = e.record;
    const was = r.status;
    r.status = status;
    this.ctx.statusChanges.push({ kind: "order", id: r.orderId, status, at: this.ctx.now() });
    if (status === "matching") r.isMatching = true;
    if (status === "executing") {
      r.isMatching = false;
      r.remainAmount = Math.floor(r.resourceAmount / 2);
    }
    if (status === "fulfilled") {
      r.isMatching = false;
      r.remainAmount = 0;
      if (was !== "fulfilled") {
        this.ctx.webhooks.send(targetOf(this.ctx.accounts.key(e.apiKey)), "order.fulfilled", "order", { ...r });
      }
    }
  }

  get(key: ApiKeyRecord, orderId: string): SimResponse {
    const e = this.orders.get(orderId);
    if (!e || e.accountId !== key.accountId) throw fail.notFound(`Order ${orderId} not found`);
    return { status: 200, body: { order: { ...e.record } } };
  }

  /** Test control: any string (unknown statuses stop the lifecycle until set again). */
  setStatus(orderId: string, status: string): void {
    const e = this.orders.get(orderId);
    if (!e) throw new Error(`unknown order ${orderId}`);
    this.apply(e, status);
    if (NEXT_STATUS[status] !== undefined) this.scheduleStep(orderId);
  }

  /** Energy committed to orders in flight (system snapshot). */
  reservedUnits(): number {
    let sum = 0;
    for (const { record } of this.orders.values()) if (record.status !== "fulfilled") sum += record.remainAmount;
    return sum;
  }
}
