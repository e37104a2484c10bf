import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/core/store/open-store.js";
import type { StoreBackend } from "../../../src/core/store/types.js";
import { createWebhookInbox } from "../../../src/core/webhooks/create-webhook-inbox.js";
import type { InboxItem, WebhookInbox, WebhookInboxDeps, WebhookNotice } from "../../../src/core/webhooks/types.js";

const logger = pino({ level: "silent" });
const orderId = "0123456789abcdef01234567";

function item(deliveryId: string, chatId = 1, verified = true): InboxItem {
  return { chatId, deliveryId, event: "order.created", payload: { data: { order: { orderId } } }, verified, receivedAt: Date.now() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
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
      payload: { orderId: n.toString(16).padStart(24, "0") },
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
});
