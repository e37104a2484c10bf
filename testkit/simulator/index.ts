import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { USDT_MAINNET_CONTRACT } from "../../src/shared/tron/index.js";
import { BroadcastDesk } from "./broadcasts.js";
import type { SimContext } from "./context.js";
import { FaultTable } from "./faults.js";
import { OrderBook } from "./orders.js";
import { PricingState } from "./pricing.js";
import { RateLimiter } from "./rate-limit.js";
import { Scheduler } from "./scheduler.js";
import { createRequestHandler } from "./server.js";
import { AccountStore } from "./state/accounts.js";
import { ChainState } from "./state/chain.js";
import type { RequestLogEntry, Simulator, SimulatorOptions, StatusChange, WebhookDelivery } from "./types.js";
import { WebhookSender } from "./webhooks.js";

export type * from "./types.js";
export { deliverySignature, signatureHeader } from "./webhooks.js";
export { derivedTiers } from "./pricing.js";
export { DEFAULT_FAILURE_REASONS } from "./broadcasts.js";

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts a faithful in-process implementation of service-api.md on 127.0.0.1. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? (() => Date.now());
  const headerPrefix = options.headerPrefix ?? "X-Service";
  const usdtContract = options.usdtContract ?? USDT_MAINNET_CONTRACT;
  const scheduler = new Scheduler();
  const requests: RequestLogEntry[] = [];
  const webhookDeliveries: WebhookDelivery[] = [];
  const statusChanges: StatusChange[] = [];
  const accounts = new AccountStore(now);
  const chain = new ChainState(usdtContract);
  const pricing = new PricingState({
    baseUnitPriceSun: options.baseUnitPriceSun ?? 100,
    amountMin: options.amountMin ?? 50_000,
    amountMax: options.amountMax ?? 200_000,
  });
  const webhooks = new WebhookSender({
    headerPrefix,
    retryBaseMs: options.webhookRetryBaseMs ?? 1_000,
    maxAttempts: options.webhookMaxAttempts ?? 8,
    timeoutMs: options.webhookTimeoutMs ?? 5_000,
    layout: options.webhookPayloadLayout ?? "nested",
    now,
    scheduler,
    deliveries: webhookDeliveries,
  });
  const ctx: SimContext = {
    accounts,
    chain,
    pricing,
    scheduler,
    webhooks,
    now,
    orderStepMs: options.orderStepMs ?? 1_000,
    broadcastStepMs: options.broadcastStepMs ?? 1_000,
    orderProcessingMs: options.orderProcessingMs ?? 0,
    usdtContract,
    statusChanges,
  };
  const orders = new OrderBook(ctx);
  const broadcasts = new BroadcastDesk(ctx);
  const faults = new FaultTable();
  let baseUrl = "";
  const server = createServer(
    createRequestHandler({
      ctx,
      orders,
      broadcasts,
      faults,
      rateLimiter: new RateLimiter(options.rateLimitPerSecond ?? 100),
      requests,
      headerPrefix,
      errorsUrl: () => options.errorsUrl ?? `${baseUrl}/errors`,
    }),
  );
  const port = await listen(server, options.port ?? 0);
  baseUrl = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      scheduler.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, webhooks.close()]);
    })();
    return stopping;
  };

  return {
    baseUrl,
    createAccount: (o) => accounts.createAccount(o),
    createApiKey: (accountId, o) => accounts.createApiKey(accountId, o),
    setCallbackUrl: (apiKey, url) => accounts.setCallbackUrl(apiKey, url),
    setIpAllowlist: (apiKey, list) => accounts.setIpAllowlist(apiKey, list),
    revokeKey: (apiKey) => accounts.revokeKey(apiKey),
    credit: (accountId, sun) => accounts.credit(accountId, sun),
    deposit: (accountId, sun) => accounts.deposit(accountId, sun),
    balanceOf: (accountId) => accounts.balanceOf(accountId),
    ledger: (accountId) => accounts.ledger(accountId),
    requests,
    statusChanges,
    chain,
    faults,
    control: {
      setBroadcastOutcome: (txIdOrAll, outcome, failureReason) => broadcasts.setOutcome(txIdOrAll, outcome, failureReason),
      setOrderStatus: (orderId, status) => orders.setStatus(orderId, status),
      setBroadcastStatus: (broadcastId, status) => broadcasts.setStatus(broadcastId, status),
      pauseLifecycles: (paused) => scheduler.setPaused(paused),
      setPricing: (patch) => pricing.patch(patch),
      addTier: (tier) => pricing.addTier(tier),
    },
    webhookDeliveries,
    stop,
  };
}
