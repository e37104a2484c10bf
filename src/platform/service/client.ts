import type { Balance, Broadcast, BroadcastAccepted, Order, OrderItemInput, Pricing, SystemSnapshot } from "./schemas.js";

/**
 * One typed function per endpoint of service-api.md section 4.
 * Every failure is thrown as `ServiceError` (./errors.ts).
 * The API key is a parameter of each call so one client serves every chat;
 * it is never logged nor put into an error message.
 */
export interface ServiceClient {
  getBalance(apiKey: string, options?: CallOptions): Promise<Balance>;
  /**
   * POST /v1/orders. `idempotencyKey` (<= 128 chars) is sent as given; the
   * caller creates it with the quote and reuses it for every retry.
   * `replayed` is true for a `200` replay of an earlier identical request.
   */
  createOrders(
    apiKey: string,
    items: readonly OrderItemInput[],
    idempotencyKey: string,
    options?: CallOptions,
  ): Promise<{ orders: Order[]; replayed: boolean }>;
  getOrder(apiKey: string, orderId: string, options?: CallOptions): Promise<Order>;
  /** POST /v1/broadcasts. `apiKey` undefined means the anonymous path. */
  createBroadcast(signedTx: unknown, apiKey: string | undefined, options?: CallOptions): Promise<BroadcastAccepted>;
  getBroadcast(apiKey: string, broadcastId: string, options?: CallOptions): Promise<Broadcast>;
  getPricing(options?: CallOptions): Promise<Pricing>;
  getSystem(options?: CallOptions): Promise<SystemSnapshot>;
  close(): Promise<void>;
}

export interface CallOptions {
  /** Aborting cancels the call, retries included; it rejects with the signal's own reason, not a ServiceError. */
  signal?: AbortSignal;
}
