/**
 * Property tests of the webhook receiver (POST /hooks/:routeId) over the
 * real server, chat repository, SQLite store and inbox. Hostile headers and
 * bodies must never crash it, never get a 5xx while the store is healthy,
 * never log at error, never store anything for a bad signature; every body
 * it accepts is processed or dropped. Fixed seeds; FUZZ_RUNS sets the
 * in-process runs (test/support/fuzz.ts: 10,000 each in CI, 200 in a plain
 * `npm test`), the loopback run is a tenth of that (at least 100).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createChatRepository } from "../../src/shared/chats/chat-repository.js";
import { createMetrics, type Metrics } from "../../src/platform/metrics.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import { createVault } from "../../src/shared/vault.js";
import { createWebhookInbox } from "../../src/shared/webhooks/create-webhook-inbox.js";
import type { InboxItem, WebhookInbox } from "../../src/shared/webhooks/types.js";
import { createHttpServer, type HttpServer } from "../../src/server/index.js";
import { computeSignature, formatSignatureHeader } from "../../src/platform/http/signature.js";
import { captureLogger, type CapturedLogger } from "../platform/service/capture-logger.js";
import { fuzzRuns } from "../support/fuzz.js";
import { PREFIX } from "./harness.js";

const RUNS = fuzzRuns();
const LOOPBACK_RUNS = Math.max(100, Math.floor(RUNS / 10));
const ORDER_ID = "0123456789abcdef01234567";
const SIGNED_CHAT = 101;
const UNSIGNED_CHAT = 102;
const SECRET = "whsec_fuzz_0123456789abcdef";

let dir: string;
let store: StoreBackend;
let inbox: WebhookInbox;
let server: HttpServer;
let metrics: Metrics;
let log: CapturedLogger;
let base: string;
let signedRoute: string;
let unsignedRoute: string;
/** Every item the inbox was asked to store. */
const stored: InboxItem[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hooks-fuzz-"));
  log = captureLogger("warn");
  store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`, { logger: log.logger, purgeIntervalMs: 0 });
  metrics = createMetrics();
  const chats = createChatRepository({ store, vault: createVault({ key: randomBytes(32) }), logger: log.logger });
  signedRoute = (await chats.link(SIGNED_CHAT, { apiKey: "sk_fuzz_signed_0123456789", webhookSecret: SECRET })).routeId!;
  unsignedRoute = (await chats.link(UNSIGNED_CHAT, { apiKey: "sk_fuzz_unsigned_0123456789" })).routeId!;
  const real = createWebhookInbox({ store, logger: log.logger, metrics, onEvent: () => Promise.resolve() });
  inbox = {
    ...real,
    accept: (item) => {
      stored.push(item);
      return real.accept(item);
    },
  };
  server = createHttpServer({
    config: { httpPort: 0, httpHost: "127.0.0.1", serviceHeaderPrefix: PREFIX },
    logger: log.logger,
    metrics,
    store,
    service: { getSystem: () => Promise.resolve({} as never) },
    chats,
    inbox,
    // The limits have tests of their own; here every request must reach the checks behind them.
    hooksRateLimits: { global: { burst: 1e9, perSecond: 1e9 }, perRoute: { burst: 1e9, perSecond: 1e9 } },
  });
  await inbox.start();
  base = `http://127.0.0.1:${(await server.start()).port}`;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await inbox?.stop();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const enc = new TextEncoder();

/** Bodies of every kind a stranger (or a broken sender) might post, tagged with their kind for the tally. */
interface Body {
  kind: string;
  bytes: Uint8Array;
}
const tagged = (kind: string, arb: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Body> => arb.map((bytes) => ({ kind, bytes }));

const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 4,
    arbitrary: tagged(
      "random JSON",
      fc.json().map((t) => enc.encode(t)),
    ),
  },
  {
    weight: 3,
    arbitrary: tagged(
      "real payload",
      fc.constantFrom(`{"orderId":"${ORDER_ID}"}`, `{"event":"order.created","data":{"order":{"orderId":"${ORDER_ID}"}}}`).map((t) => enc.encode(t)),
    ),
  },
  {
    weight: 3,
    arbitrary: tagged(
      "toJSON/__proto__ keys",
      fc
        .array(
          fc.tuple(
            fc.constantFrom("toJSON", "__proto__", "constructor", "prototype", "orderId", "data", "event", ":base64:x", "valueOf"),
            fc.jsonValue({ maxDepth: 3 }),
          ),
          { maxLength: 6 },
        )
        .map((pairs) => enc.encode(`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`)),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.constantFrom("[", '{"a":'), fc.boolean()).map(([depth, open, balanced]) => {
      const close = open === "[" ? "]" : "}";
      return {
        kind: depth > 32 ? "nested > 32" : "nested <= 32",
        bytes: enc.encode(`${open.repeat(depth)}"${ORDER_ID}"${balanced ? close.repeat(depth) : ""}`),
      };
    }),
  },
  {
    weight: 1,
    arbitrary: tagged(
      "huge string",
      fc.integer({ min: 1_000, max: 200_000 }).map((n) => enc.encode(`{"orderId":"${ORDER_ID}","pad":"${"x".repeat(n)}"}`)),
    ),
  },
  { weight: 2, arbitrary: tagged("random bytes", fc.uint8Array({ maxLength: 300 })) },
  {
    weight: 2,
    arbitrary: tagged(
      "invalid UTF-8 in JSON",
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bad) => {
        const [head, tail] = [enc.encode(`{"a":"`), enc.encode(`","orderId":"${ORDER_ID}"}`)];
        return Uint8Array.from([...head, ...bad.map((b) => (b === 0x22 || b === 0x5c || b < 0x20 ? 0xff : b)), ...tail]);
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: tagged(
      "non-JSON text",
      fc.string({ maxLength: 200 }).map((t) => enc.encode(t)),
    ),
  },
);

/** Header values as HTTP lets a client send them: space to `~` and Latin-1 (no controls, no DEL). */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength });

type SignatureKind = "valid" | "none" | "garbage" | "wrong-secret" | "stale" | "other-body" | "several";
const signatureArb = fc.constantFrom<SignatureKind>("valid", "valid", "none", "garbage", "wrong-secret", "stale", "other-body", "several");

function signatureFor(kind: SignatureKind, body: Uint8Array, garbage: string): string | undefined {
  const t = Math.floor(Date.now() / 1000);
  switch (kind) {
    case "valid":
      return formatSignatureHeader(t, [computeSignature(SECRET, t, body)]);
    case "none":
      return undefined;
    case "garbage":
      return garbage;
    case "wrong-secret":
      return formatSignatureHeader(t, [computeSignature(`${SECRET}x`, t, body)]);
    case "stale":
      return formatSignatureHeader(t - 3_600, [computeSignature(SECRET, t - 3_600, body)]);
    case "other-body":
      return formatSignatureHeader(t, [computeSignature(SECRET, t, Uint8Array.from([...body, 0x20]))]);
    case "several":
      return formatSignatureHeader(
        t,
        Array.from({ length: 9 }, () => computeSignature(SECRET, t, body)),
      );
  }
}

interface Case {
  signedRoute: boolean;
  signature: SignatureKind;
  garbage: string;
  deliveryId: string | undefined;
  event: string | undefined;
  body: Body;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  signedRoute: fc.boolean(),
  signature: signatureArb,
  garbage: headerText(300),
  deliveryId: fc.option(fc.oneof(fc.uuid(), headerText(250)), { nil: undefined }),
  event: fc.option(fc.oneof(fc.constantFrom("order.created", "broadcast.failed", "order.", "x"), headerText(150)), { nil: undefined }),
  body: bodyArb,
});

function headersOf(c: Case): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature = signatureFor(c.signature, c.body.bytes, c.garbage);
  if (signature !== undefined) headers[`${PREFIX}-Signature`] = signature;
  if (c.deliveryId !== undefined) headers[`${PREFIX}-Delivery-Id`] = c.deliveryId;
  if (c.event !== undefined) headers[`${PREFIX}-Event`] = c.event;
  return headers;
}

/** Log lines already checked: each case looks only at what it added (parsing them all would be quadratic). */
let checkedLines = 0;
function newErrorLines(): string[] {
  const fresh = log.lines.slice(checkedLines);
  checkedLines = log.lines.length;
  return fresh.filter((line) => Number((JSON.parse(line) as { level?: unknown }).level) >= 50);
}

const tally = new Map<string, number>();
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

/** Checks one answer against the invariants; returns nothing, throws on a breach. */
function check(c: Case, status: number, storedBefore: number): void {
  count(`status ${status}`);
  count(`body ${c.body.kind}`);
  count(`signature ${c.signedRoute ? c.signature : "unsigned route"}`);
  expect([200, 202, 400, 401, 413]).toContain(status);
  const signatureValid = c.signature === "valid";
  if (c.signedRoute && !signatureValid) {
    expect(status).toBe(401);
    expect(stored.length).toBe(storedBefore);
  }
  if (status === 202) {
    expect(stored.length).toBe(storedBefore + 1);
    // What was stored is the text as received, and it is JSON.
    expect(() => JSON.parse(stored.at(-1)!.body) as unknown).not.toThrow();
  } else {
    expect(stored.length).toBe(storedBefore + (status === 200 ? 1 : 0));
  }
  expect(newErrorLines()).toEqual([]);
}

/** node:http rather than undici: it sends any header value HTTP allows (empty, Latin-1), as a raw sender could. */
function post(path: string, headers: Record<string, string>, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: "POST", headers: { ...headers, "content-length": String(body.length) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function drained(): Promise<void> {
  const accepted = await metrics.get("webhooks_total", { outcome: "accepted" });
  await vi.waitFor(
    async () => {
      expect(await inbox.size()).toBe(0);
      const done = (await metrics.get("webhooks_total", { outcome: "processed" })) + (await metrics.get("webhooks_total", { outcome: "dropped" }));
      expect(done).toBe(accepted);
    },
    { timeout: 60_000, interval: 50 },
  );
}

describe("POST /hooks/:routeId under hostile input (property)", () => {
  it(`in process: ${RUNS} random header and body combinations`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const before = stored.length;
        const route = c.signedRoute ? signedRoute : unsignedRoute;
        const res = await server.app.request(`/hooks/${route}`, { method: "POST", headers: headersOf(c), body: c.body.bytes });
        await res.arrayBuffer();
        check(c, res.status, before);
      }),
      { numRuns: RUNS, seed: 20_260_801 },
    );
    await drained();
    expect(newErrorLines()).toEqual([]);
  }, 600_000);

  it(`in process: ${RUNS} validly signed bodies of every kind`, async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, fc.option(fc.uuid(), { nil: undefined }), async (body, deliveryId) => {
        const c: Case = { signedRoute: true, signature: "valid", garbage: "", deliveryId, event: undefined, body };
        const before = stored.length;
        const res = await server.app.request(`/hooks/${signedRoute}`, { method: "POST", headers: headersOf(c), body: body.bytes });
        await res.arrayBuffer();
        check(c, res.status, before);
        const text = Buffer.from(body.bytes).toString("utf8");
        let json = true;
        try {
          JSON.parse(text);
        } catch {
          json = false;
        }
        if (!json) expect(res.status).toBe(400);
      }),
      { numRuns: RUNS, seed: 20_260_802 },
    );
    await drained();
    expect(newErrorLines()).toEqual([]);
  }, 600_000);

  it(`over loopback: ${LOOPBACK_RUNS} random combinations`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const before = stored.length;
        const route = c.signedRoute ? signedRoute : unsignedRoute;
        check(c, await post(`/hooks/${route}`, headersOf(c), c.body.bytes), before);
      }),
      { numRuns: LOOPBACK_RUNS, seed: 20_260_803 },
    );
    await drained();
    expect(newErrorLines()).toEqual([]);
    console.info(
      `hooks fuzz: ${[...tally]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ")}; stored ${stored.length}`,
    );
  }, 600_000);
});
