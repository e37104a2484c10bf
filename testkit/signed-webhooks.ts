import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import { extractEventIds, kindOfEvent } from "../src/shared/webhooks/extract-event-ids.js";
import { deliverySignature } from "./simulator/index.js";

export interface WebhookHint {
  kind: "order" | "broadcast";
  id: string;
  verified: boolean;
}

/**
 * A loopback receiver for the simulator's webhooks, for tracker tests and
 * benches without the bot's HTTP server: answers 200 at once, checks the
 * delivery signature against `secret` (as the bot's route does) and hands
 * each named record to `onHint`, as the inbox hands its notices to the tracker.
 */
export async function startWebhookReceiver(secretOf: () => string | undefined, onHint: (hint: WebhookHint) => void, headerPrefix = "x-service") {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(200).end();
      const body = Buffer.concat(chunks).toString("utf8");
      const deliveryId = String(req.headers[`${headerPrefix}-delivery-id`] ?? "");
      const got = Buffer.from(String(req.headers[`${headerPrefix}-delivery-sig`] ?? ""));
      const secret = secretOf();
      const want = Buffer.from(secret === undefined ? "" : deliverySignature(secret, deliveryId, body));
      const verified = secret !== undefined && got.length === want.length && timingSafeEqual(got, want);
      const event = String(req.headers[`${headerPrefix}-event`] ?? "");
      const ids = extractEventIds(JSON.parse(body) as unknown);
      const kind = kindOfEvent(event) ?? "order";
      for (const id of kind === "order" ? ids.orderIds : ids.broadcastIds) onHint({ kind, id, verified });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
