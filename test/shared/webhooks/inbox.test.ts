import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openStore } from "../../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../../src/platform/store/types.js";
import { createWebhookInbox } from "../../../src/shared/webhooks/create-webhook-inbox.js";
import { inboxKey } from "../../../src/shared/webhooks/create-local-inbox.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps, WebhookNotice } from "../../../src/shared/webhooks/types.js";
import { captureLogger } from "../../platform/service/capture-logger.js";
import { waitUntil } from "../../support/wait.js";

const logger = pino({ level: "silent" });
const orderId = "0123456789abcdef01234567";

function item(deliveryId: string, chatId = 1, verified = true): InboxItem {
  return { chatId, deliveryId, event: "order.created", body: JSON.stringify({ data: { order: { orderId } } }), verified, receivedAt: Date.now() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await waitUntil(check, { timeoutMs, intervalMs: 10 });
}

describe("webhook inbox over SQLite", () => {
  let dir: string;
  let store: StoreBackend;
  const inboxes: WebhookInbox[] = [];
  const url = () => `sqlite://${join(dir, "bot.sqlite")}`;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "inbox-"));
    store = await openStore(url(), { logger, purgeIntervalMs: 0 });
  });
  afterEach(async () => {
    for (const i of inboxes.splice(0)) await i.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function inbox(onEvent: WebhookInboxDeps["onEvent"], extra: Partial<WebhookInboxDeps> = {}) {
    const i = createWebhookInbox({ store, logger, onEvent, baseDelayMs: 10, ...extra });
    inboxes.push(i);
    return i;
  }

  it("answers before the work is done: accept resolves while onEvent is still blocked", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: WebhookNotice[] = [];
    const i = inbox(async (n) => {
      await gate;
      seen.push(n);
    });
    await i.start();
    expect(await i.accept(item("d1"))).toBe("accepted");
    expect(seen).toEqual([]);
    release();
    await until(() => seen.length === 1);
    await until(async () => (await i.size()) === 0);
  });

  it("loses nothing when the process dies after the 2xx: the next start processes the stored delivery", async () => {
    const crashed = inbox(() => Promise.resolve());
    // Never started: the delivery is stored (the 2xx was sent) but never processed.
    expect(await crashed.accept(item("d2"))).toBe("accepted");
    await store.close();
    store = await openStore(url(), { logger, purgeIntervalMs: 0 });
    const seen: WebhookNotice[] = [];
    const next = inbox((n) => Promise.resolve(void seen.push(n)));
    await next.start();
    await until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ chatId: 1, kind: "order", id: orderId, deliveryId: "d2" });
    // And the delivery id is still remembered across the restart.
    expect(await next.accept(item("d2"))).toBe("duplicate");
  });

  it("retries processing that failed (service down) with backoff", async () => {
    let failures = 2;
    let calls = 0;
    const i = inbox(() => {
      calls += 1;
      return failures-- > 0 ? Promise.reject(new Error("service unavailable")) : Promise.resolve();
    });
    await i.start();
    await i.accept(item("d3"));
    await until(() => calls === 3);
    await until(async () => (await i.size()) === 0);
  });

  it("retries a failed delivery at its next start when a stop cancelled the retry, and no earlier", async () => {
    let calls = 0;
    const i = inbox(
      () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error("service unavailable")) : Promise.resolve();
      },
      { baseDelayMs: 3_600_000 },
    );
    await i.start();
    await i.accept(item("d3b"));
    await until(() => calls === 1);
    await i.stop();
    expect(await i.size()).toBe(1);
    await i.start();
    await until(() => calls === 2);
    await until(async () => (await i.size()) === 0);
  });

  it("deduplicates by delivery id per chat, concurrent retries included", async () => {
    const i = inbox(() => Promise.resolve());
    const results = await Promise.all([i.accept(item("d4")), i.accept(item("d4")), i.accept(item("d4"))]);
    expect(results.filter((r) => r === "accepted")).toHaveLength(1);
    expect(await i.accept(item("d4", 2))).toBe("accepted");
  });

  it("forgets delivery ids after the dedup window", async () => {
    const i = inbox(() => Promise.resolve(), { dedupTtlMs: 50 });
    await i.start();
    expect(await i.accept(item("d5"))).toBe("accepted");
    await until(async () => (await i.size()) === 0);
    await new Promise((r) => setTimeout(r, 80));
    expect(await i.accept(item("d5"))).toBe("accepted");
  });

  it("passes an unverified hint for one record on at most once per cooldown", async () => {
    const seen: WebhookNotice[] = [];
    const i = inbox((n) => Promise.resolve(void seen.push(n)), { hintCooldownMs: 60_000 });
    await i.start();
    for (const d of ["h1", "h2", "h3"]) await i.accept(item(d, 1, false));
    await until(async () => (await i.size()) === 0);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.verified).toBe(false);
  });

  it("passes on at most N unverified hints per chat per minute, whatever the ids; signed ones are not limited", async () => {
    const seen: WebhookNotice[] = [];
    const i = inbox((n) => Promise.resolve(void seen.push(n)), { hintsPerChatPerMinute: 3 });
    await i.start();
    const forged = (n: number, chatId: number, verified: boolean): InboxItem => ({
      chatId,
      deliveryId: `f${n}-${chatId}-${verified}`,
      event: "order.created",
      body: JSON.stringify({ orderId: n.toString(16).padStart(24, "0") }),
      verified,
      receivedAt: Date.now(),
    });
    for (let n = 1; n <= 6; n += 1) await i.accept(forged(n, 1, false));
    for (let n = 1; n <= 2; n += 1) await i.accept(forged(n, 2, false));
    for (let n = 1; n <= 6; n += 1) await i.accept(forged(n, 3, true));
    await until(async () => (await i.size()) === 0);
    expect(seen.filter((n) => n.chatId === 1)).toHaveLength(3);
    expect(seen.filter((n) => n.chatId === 2)).toHaveLength(2);
    expect(seen.filter((n) => n.chatId === 3)).toHaveLength(6);
  });

  it("checks and counts unverified hints in one step: 43 concurrent hints for one chat pass a budget of 30 exactly 30 times", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: WebhookNotice[] = [];
    const i = inbox(
      async (n) => {
        seen.push(n);
        await gate;
      },
      // All 43 processed at once: the budget must hold under real concurrency.
      { hintsPerChatPerMinute: 30, concurrency: 43 },
    );
    await i.start();
    const forged = (n: number): InboxItem => ({
      chatId: 9,
      deliveryId: `c${n}`,
      event: "order.created",
      body: JSON.stringify({ orderId: n.toString(16).padStart(24, "0") }),
      verified: false,
      receivedAt: Date.now(),
    });
    await Promise.all(Array.from({ length: 43 }, (_, n) => i.accept(forged(n + 1))));
    // Every item has been looked at once nothing is left to process but the 30 waiting at the gate.
    await vi.waitFor(async () => expect(await i.size()).toBe(30));
    release();
    await until(async () => (await i.size()) === 0);
    expect(seen).toHaveLength(30);
  });

  it("gives the budget back when a hint could not be passed on, so its retry goes through", async () => {
    let failures = 1;
    const seen: WebhookNotice[] = [];
    const i = inbox(
      (n) => {
        if (failures-- > 0) return Promise.reject(new Error("service unavailable"));
        seen.push(n);
        return Promise.resolve();
      },
      { hintsPerChatPerMinute: 1, hintCooldownMs: 60_000 },
    );
    await i.start();
    await i.accept(item("r1", 1, false));
    await until(async () => (await i.size()) === 0);
    expect(seen).toHaveLength(1);
  });

  it("keeps the body as text, so hostile JSON (toJSON, __proto__, long strings) is stored and processed", async () => {
    const seen: WebhookNotice[] = [];
    const i = inbox((n) => Promise.resolve(void seen.push(n)));
    await i.start();
    const bodies = [
      `{"toJSON":1,"orderId":"${orderId}"}`,
      `{"__proto__":{"toJSON":"x"},"data":{"order":{"orderId":"${orderId}","toJSON":true}}}`,
      `{"note":":base64:AAAA","orderId":"${orderId}","pad":"${"x".repeat(100_000)}"}`,
    ];
    for (const [n, body] of bodies.entries()) {
      expect(await i.accept({ ...item(`t${n}`), body })).toBe("accepted");
    }
    await until(async () => (await i.size()) === 0);
    expect(seen.map((n) => n.id)).toEqual([orderId, orderId, orderId]);
  });

  it("still processes items stored before bodies were kept as text, and discards unreadable ones with a warning", async () => {
    const kv = store.namespace("webhook-inbox");
    const legacy = {
      chatId: 1,
      deliveryId: "old-1",
      event: "order.created",
      payload: { data: { order: { orderId } } },
      verified: true,
      receivedAt: Date.now(),
    };
    await kv.set(inboxKey(1, "old-1"), { v: 1, item: legacy, attempts: 2 });
    await kv.set(inboxKey(1, "junk-1"), { v: 1, item: { deliveryId: 7 } });
    await kv.set(inboxKey(1, "junk-2"), "not an item");
    const captured = captureLogger("warn");
    const seen: WebhookNotice[] = [];
    const i = inbox((n) => Promise.resolve(void seen.push(n)), { logger: captured.logger });
    await i.start();
    await until(async () => (await i.size()) === 0);
    expect(seen).toEqual([expect.objectContaining({ chatId: 1, id: orderId, deliveryId: "old-1", verified: true })]);
    const warnings = captured.records().filter((r) => r["msg"] === "unreadable webhook inbox item discarded");
    expect(warnings).toHaveLength(2);
    expect(captured.records().filter((r) => Number(r["level"]) >= 50)).toEqual([]);
  });

  it("drops a stored body that is not JSON within the depth limit, with a warning and no error", async () => {
    const captured = captureLogger("warn");
    const seen: WebhookNotice[] = [];
    const i = inbox((n) => Promise.resolve(void seen.push(n)), { logger: captured.logger });
    await i.start();
    await i.accept({ ...item("deep"), body: `${"[".repeat(5_000)}"${orderId}"${"]".repeat(5_000)}` });
    await i.accept({ ...item("notjson"), body: "{orderId:" });
    await until(async () => (await i.size()) === 0);
    expect(seen).toEqual([]);
    expect(captured.records().filter((r) => Number(r["level"]) >= 50)).toEqual([]);
    expect(captured.records().filter((r) => r["level"] === 40)).toHaveLength(2);
  });
});
