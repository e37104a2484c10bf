/** Public shapes of the service simulator (see docs/simulator.md). */

export interface SimulatorOptions {
  /** Default 0: a free port. The host is always 127.0.0.1. */
  port?: number;
  /** Webhook and response header prefix; default "X-Service". */
  headerPrefix?: string;
  /** Default 100 sun per energy unit. */
  baseUnitPriceSun?: number;
  /** Default 50_000. */
  amountMin?: number;
  /** Default 200_000. */
  amountMax?: number;
  /** Delay between order states; default 1000 ms. */
  orderStepMs?: number;
  /** Delay between broadcast states; default 1000 ms. */
  broadcastStepMs?: number;
  /** Time an order request holds its idempotency reservation before completing; default 0. */
  orderProcessingMs?: number;
  /** First webhook retry delay (doubles each attempt); default 1000 ms. */
  webhookRetryBaseMs?: number;
  /** Default 8. */
  webhookMaxAttempts?: number;
  /** Time a receiver has to answer a webhook; default 5000 ms. */
  webhookTimeoutMs?: number;
  webhookPayloadLayout?: "nested" | "flat";
  /** Token bucket per API key (or per IP without a key); default 100. */
  rateLimitPerSecond?: number;
  /** Base58 stablecoin contract; default mainnet USDT. */
  usdtContract?: string;
  /** Base of the RFC 7807 `type` URLs; default `${baseUrl}/errors`. */
  errorsUrl?: string;
  /** Injectable wall clock (ms) for timestamps, expirations, idempotency windows and webhook `t`. */
  now?: () => number;
}

export interface CreateAccountOptions {
  balanceSun?: number;
  /** Omitted: a generated address. `null`: not issued yet. */
  depositAddress?: string | null;
  /** false: GET /v1/balance answers 404 not_found until a credit. Default true. */
  hasWallet?: boolean;
  /** The owner's chain address; anonymous broadcasts signed by it are charged here. */
  address?: string;
}

export interface CreateApiKeyOptions {
  callbackUrl?: string;
  ipAllowlist?: string[] | null;
}

export interface Credentials {
  apiKey: string;
  webhookSecret: string;
}

export type LedgerKind = "debit" | "refund" | "deposit";

export interface LedgerEntry {
  kind: LedgerKind;
  amountSun: number;
  ref?: string;
  at: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** 0 when no response was sent (hang, reset). */
  status: number;
  hasAuth: boolean;
  /** The Authorization header as sent (tests check what a client sent as its key). */
  authorization?: string;
  idempotencyKey?: string;
  at: number;
}

/** One status an order or broadcast took, when the simulator applied it (its creation included). */
export interface StatusChange {
  kind: "order" | "broadcast";
  id: string;
  status: string;
  at: number;
}

export type FaultMatch = { method?: string; path: string | RegExp; times?: number };

/** What a fault does, without where it applies (handy for tables of faults). */
export type FaultBehaviour =
  | { kind: "status"; status: number; code: string; detail?: string; retryAfterSec?: number }
  /** `afterProcessing`: the request is handled first, then the answer is lost (outcome unknown). */
  | { kind: "hang"; afterProcessing?: boolean }
  /** Default body: a small HTML page; default content type text/html. */
  | { kind: "non_json"; status: number; body?: string; contentType?: string }
  | { kind: "reset"; afterProcessing?: boolean }
  /** `afterProcessing`: the request is handled (and its webhooks sent) first, then its answer waits. */
  | { kind: "delay"; ms: number; afterProcessing?: boolean };

export type Fault = FaultMatch & FaultBehaviour;

export type BroadcastOutcome = "confirmed" | "failed" | "expired";

export interface PricingTierInput {
  durationSec: number;
  label: string;
  unitPriceSun: number;
}

export interface PricingPatch {
  baseUnitPriceSun?: number;
  amountMin?: number;
  amountMax?: number;
  /** Replaces the derived tiers entirely. */
  tiers?: PricingTierInput[];
}

export interface WebhookDelivery {
  url: string;
  event: string;
  deliveryId: string;
  attempt: number;
  /** HTTP status of the receiver, or "error" for a timeout / connection failure. */
  status: number | "error";
  body: string;
  /** When the receiver's answer came back (ms since the epoch). */
  answeredAtMs: number;
}

export interface ChainControl {
  /** Default: every valid address is activated. */
  setActivated(address: string, activated: boolean): void;
  /** Marks an address as a contract (the stablecoin contract is one already). */
  setContract(address: string, isContract?: boolean): void;
  /** Token balance in atomic units; default: unlimited. */
  setTokenBalance(address: string, atomic: bigint): void;
  /** Whether the address already holds the token (64,000 vs 130,000 energy). Default false. */
  setHoldsToken(address: string, holds: boolean): void;
  /** Contract calls to (or transactions from) this address fail simulation: tx_would_revert. */
  setReverts(address: string, reverts: boolean): void;
  /** Transactions from this address cannot cover bandwidth: insufficient_bandwidth. */
  setNoBandwidth(address: string, noBandwidth: boolean): void;
}

export interface FaultControl {
  inject(fault: Fault): void;
  clear(): void;
}

export interface SimulatorControl {
  setBroadcastOutcome(txIdOrAll: string, outcome: BroadcastOutcome, failureReason?: string): void;
  setOrderStatus(orderId: string, status: string): void;
  setBroadcastStatus(broadcastId: string, status: string): void;
  pauseLifecycles(paused: boolean): void;
  setPricing(patch: PricingPatch): void;
  addTier(tier: PricingTierInput): void;
}

export interface Simulator {
  baseUrl: string;
  createAccount(options?: CreateAccountOptions): Credentials & { accountId: string };
  createApiKey(accountId: string, options?: CreateApiKeyOptions): Credentials;
  setCallbackUrl(apiKey: string, url: string | null): void;
  setIpAllowlist(apiKey: string, list: string[] | null): void;
  revokeKey(apiKey: string): void;
  credit(accountId: string, sun: number): void;
  /** A transfer to the deposit address: credited (true) only from 10 TRX up, as the service does. */
  deposit(accountId: string, sun: number): boolean;
  balanceOf(accountId: string): number;
  ledger(accountId: string): LedgerEntry[];
  readonly requests: RequestLogEntry[];
  /** Every status change in the order it happened: what a test measures a notice's delay from. */
  readonly statusChanges: StatusChange[];
  chain: ChainControl;
  faults: FaultControl;
  control: SimulatorControl;
  readonly webhookDeliveries: WebhookDelivery[];
  stop(): Promise<void>;
}
