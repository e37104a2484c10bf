import type { PricingState } from "./pricing.js";
import type { Scheduler } from "./scheduler.js";
import type { AccountStore, ApiKeyRecord } from "./state/accounts.js";
import type { ChainState } from "./state/chain.js";
import type { StatusChange } from "./types.js";
import type { WebhookSender } from "./webhooks.js";

/** Everything a handler needs; built once per simulator. */
export interface SimContext {
  accounts: AccountStore;
  chain: ChainState;
  pricing: PricingState;
  scheduler: Scheduler;
  webhooks: WebhookSender;
  now: () => number;
  orderStepMs: number;
  broadcastStepMs: number;
  orderProcessingMs: number;
  usdtContract: string;
  /** Appended to on every status change (see `Simulator.statusChanges`). */
  statusChanges: StatusChange[];
}

export interface SimResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function isoNow(ctx: Pick<SimContext, "now">): string {
  return new Date(ctx.now()).toISOString();
}

/** Webhook target of a key, read when the event fires (the URL may have changed). */
export function targetOf(key: ApiKeyRecord | undefined): { callbackUrl: string | null; webhookSecret: string } | undefined {
  return key ? { callbackUrl: key.callbackUrl, webhookSecret: key.webhookSecret } : undefined;
}
