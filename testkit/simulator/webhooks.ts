import { createHmac, randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import type { Scheduler } from "./scheduler.js";
import type { WebhookDelivery } from "./types.js";

export type WebhookEvent = "order.created" | "order.fulfilled" | "broadcast.accepted" | "broadcast.confirmed" | "broadcast.failed";

export interface WebhookTarget {
  callbackUrl: string | null;
  webhookSecret: string;
}

export interface WebhookSenderDeps {
  headerPrefix: string;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  layout: "nested" | "flat";
  now: () => number;
  scheduler: Scheduler;
  deliveries: WebhookDelivery[];
}

/** `v1=` HMAC-SHA256 hex over "<t>.<raw body>"; `t` is unix seconds of the attempt. */
export function signatureHeader(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** Stable across retries: HMAC-SHA256 hex over "<deliveryId>.<raw body>". */
export function deliverySignature(secret: string, deliveryId: string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${deliveryId}.${body}`).digest("hex")}`;
}

/**
 * Posts events to a key's callback URL and retries failures (non-2xx,
 * timeout, connection error) with exponential backoff. Each delivery is
 * independent, so events may arrive out of order.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: WebhookSenderDeps) {
    this.agent = new Agent({ connect: { timeout: deps.timeoutMs }, keepAliveTimeout: 1_000 });
  }

  send(target: WebhookTarget | undefined, event: WebhookEvent, resource: "order" | "broadcast", record: object): void {
    if (this.closed || !target?.callbackUrl) return;
    const deliveryId = randomUUID();
    const payload =
      this.deps.layout === "nested"
        ? { id: deliveryId, event, createdAt: new Date(this.deps.now()).toISOString(), data: { [resource]: record } }
        : { event, ...record };
    const body = JSON.stringify(payload);
    this.attempt(target.callbackUrl, target.webhookSecret, event, deliveryId, body, 1);
  }

  private attempt(url: string, secret: string, event: WebhookEvent, deliveryId: string, body: string, attempt: number): void {
    if (this.closed) return;
    const p = this.post(url, secret, event, deliveryId, body)
      .then((status) => {
        if (this.closed) return;
        this.deps.deliveries.push({ url, event, deliveryId, attempt, status, body, answeredAtMs: Date.now() });
        const ok = typeof status === "number" && status >= 200 && status < 300;
        if (ok || attempt >= this.deps.maxAttempts) return;
        const delay = this.deps.retryBaseMs * 2 ** (attempt - 1);
        this.deps.scheduler.after(delay, () => this.attempt(url, secret, event, deliveryId, body, attempt + 1));
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async post(url: string, secret: string, event: WebhookEvent, deliveryId: string, body: string): Promise<number | "error"> {
    const prefix = this.deps.headerPrefix;
    const t = Math.floor(this.deps.now() / 1000);
    try {
      const res = await request(url, {
        method: "POST",
        body,
        dispatcher: this.agent,
        headersTimeout: this.deps.timeoutMs,
        bodyTimeout: this.deps.timeoutMs,
        headers: {
          "content-type": "application/json",
          "user-agent": "service-simulator-webhooks/1",
          [`${prefix}-Event`]: event,
          [`${prefix}-Delivery-Id`]: deliveryId,
          [`${prefix}-Signature`]: signatureHeader(secret, t, body),
          [`${prefix}-Delivery-Sig`]: deliverySignature(secret, deliveryId, body),
        },
      });
      await res.body.dump();
      return res.statusCode;
    } catch {
      return "error";
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.agent.destroy().catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }
}
