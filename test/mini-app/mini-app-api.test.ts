/**
 * The Mini App's server side over loopback (docs/mini-app.md): the app built as src/main.ts builds it, the
 * simulator behind it, the fake Bot API in front. Launch data is signed with the fake bot's token.
 */
import { describe, expect, it } from "vitest";
import { signInitData } from "../../testkit/mini-app-launch.js";
import { RECEIVER, useSqliteAppWorld, waitFor, type AppWorld } from "../app-harness.js";

const nowS = () => Math.floor(Date.now() / 1000);

describe("the Mini App's API", () => {
  const world = useSqliteAppWorld();

  async function linkedWithOrders(chat: number, orders: number) {
    const { w, target } = world;
    const app = await w.startApp(target);
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    const ids: string[] = [];
    for (let i = 0; i < orders; i += 1) ids.push((await w.placeOrder(chat)).orderId);
    return { w, base: `http://127.0.0.1:${app.httpPort}`, ids };
  }

  const initFor = (w: AppWorld, id: number, extra: { authDateS?: number; token?: string; language?: string } = {}) =>
    signInitData(extra.token ?? w.tg.token, {
      user: { id, first_name: "Ann", language_code: extra.language ?? "en" },
      authDateS: extra.authDateS ?? nowS(),
      queryId: "AAHdF6IQAAAAAN0XohDhrOrc",
    });

  const get = (url: string, initData?: string) => fetch(url, initData === undefined ? {} : { headers: { "X-Telegram-Init-Data": initData } });

  it("shows the linked chat its exact balance and the same ledger rows as /orders, and /statement's CSV", async () => {
    const { w, base, ids } = await linkedWithOrders(7501, 2);
    const init = initFor(w, 7501);

    const me = await get(`${base}/app/api/me`, init);
    expect(me.status).toBe(200);
    expect(me.headers.get("set-cookie")).toBeNull();
    expect(me.headers.get("cache-control")).toBe("no-store");
    const body = (await me.json()) as {
      linked: boolean;
      locale: string;
      balance: { availableSun: string; availableTrx: string };
      texts: Record<string, string>;
    };
    const service = (await (await fetch(`${w.sim.baseUrl}/v1/balance`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } })).json()) as {
      availableSun: number;
    };
    expect(body).toMatchObject({ linked: true, locale: "en", balance: { availableSun: String(service.availableSun) } });
    expect(body.texts["mini-app-history"]).toBe("History");
    expect(JSON.stringify(body)).not.toContain(w.demo.apiKey);

    // The ledger as the chat's /orders shows it once both orders are fulfilled (the same rows, word for word).
    await waitFor(() => ids.every((id) => w.botTexts(7501, new RegExp(`${id}[\\s\\S]*fulfilled`)).length > 0), "both orders fulfilled");
    const orders = await w.say(7501, "/orders", (m) => m.text.includes("Orders and broadcasts"));
    const history = (await (await get(`${base}/app/api/history?filter=a&page=0`, init)).json()) as {
      total: number;
      rows: { id: string; status: string; text: string; costSun: string; explorerUrl: string }[];
    };
    expect(history.total).toBe(2);
    expect(history.rows.map((r) => r.id)).toEqual([...ids].reverse());
    for (const row of history.rows) {
      expect(orders.text).toContain(row.text);
      expect(row.costSun).toMatch(/^\d+$/);
      expect(row.explorerUrl).toMatch(/^https:\/\/tronscan\.org\/#\/address\/T/);
    }
    const onlyBroadcasts = (await (await get(`${base}/app/api/history?filter=b`, init)).json()) as { total: number };
    expect(onlyBroadcasts.total).toBe(0);

    const csv = await get(`${base}/app/api/history.csv`, init);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    for (const row of history.rows) expect(text).toContain(row.id);
    for (const row of history.rows) expect(text).toContain(row.costSun);

    expect((await get(`${base}/app/api/history?filter=z`, init)).status).toBe(400);
    expect((await get(`${base}/app/api/history.csv?month=13.2026`, init)).status).toBe(400);
  });

  it("refuses no, forged, stale, future and other bots' launch data with 401 and shows nothing", async () => {
    const { w, base } = await linkedWithOrders(7502, 1);
    const good = initFor(w, 7502);
    const forged = good.replace(/hash=[0-9a-f]/, (h) => (h.endsWith("a") ? "hash=b" : "hash=a"));
    const cases: [string, string | undefined][] = [
      ["none", undefined],
      ["empty", ""],
      ["forged", forged],
      ["stale", initFor(w, 7502, { authDateS: nowS() - 3_601 - 5 })],
      ["future", initFor(w, 7502, { authDateS: nowS() + 3_600 })],
      ["other bot", initFor(w, 7502, { token: "7000000002:AAAnotherBotsToken_0123456789abcdef" })],
    ];
    for (const [what, init] of cases) {
      for (const path of ["/app/api/me", "/app/api/history", "/app/api/history.csv", "/app/api/nothing"]) {
        const response = await get(`${base}${path}`, init);
        expect(response.status, `${what} ${path}`).toBe(401);
        const body = await response.text();
        expect(body, `${what} ${path}`).not.toMatch(/availableSun|rows|[0-9a-f]{24}/);
      }
    }
    const stale = (await (await get(`${base}/app/api/me`, initFor(w, 7502, { authDateS: nowS() - 7_200, language: "ru" }))).json()) as {
      error: string;
      message: string;
    };
    expect(stale).toMatchObject({ error: "expired" });
    expect(stale.message).toContain("Сеанс истёк");
  });

  it("shows another user (a chat with no account linked) no account at all", async () => {
    const { w, base } = await linkedWithOrders(7503, 1);
    const other = initFor(w, 7504, { language: "zh" });
    const me = (await (await get(`${base}/app/api/me`, other)).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ linked: false, locale: "zh" });
    expect(me).not.toHaveProperty("balance");
    const history = await get(`${base}/app/api/history`, other);
    expect(history.status).toBe(403);
    expect(await history.text()).not.toMatch(/[0-9a-f]{24}/);
    expect((await get(`${base}/app/api/history.csv`, other)).status).toBe(403);
  });

  it("serves the shell with a strict CSP and no inline script, and sets the menu button to the https app", async () => {
    const { w, base } = await linkedWithOrders(7505, 0);
    const shell = await get(`${base}/app`);
    expect(shell.status).toBe(200);
    const csp = shell.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe");
    const html = await shell.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attrs, content] of scripts) expect(attrs!.includes("src=") || attrs!.includes('type="application/json"'), `${attrs} ${content}`).toBe(true);
    expect(html).not.toMatch(/https?:\/\/(?!web\.telegram\.org)/);
    const js = await get(`${base}/app/app.js`);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect((await js.text()).length).toBeGreaterThan(1000);
    expect((await get(`${base}/app/app.css`)).status).toBe(200);

    const button = (await (await fetch(`${w.tg.apiRoot}/bot${w.tg.token}/getChatMenuButton`)).json()) as { result: unknown };
    expect(button.result).toEqual({ type: "web_app", text: "Open app", web_app: { url: "https://bot.example.test/app" } });
  });

  it("quotes and places an order through the chat's use cases: once, its card in the chat, nobody else's quote", async () => {
    const { w, base } = await linkedWithOrders(7507, 0);
    const init = initFor(w, 7507);
    const send = (path: string, body: unknown, initData = init) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "X-Telegram-Init-Data": initData, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const options = (await (await get(`${base}/app/api/order/options?amount=100000`, init)).json()) as {
      tiers: { durationSec: number; totalSun: string; unitPriceSun: string }[];
    };
    expect(options.tiers.length).toBeGreaterThan(0);
    for (const tier of options.tiers) expect(BigInt(tier.totalSun)).toBe(BigInt(tier.unitPriceSun) * 100_000n);
    expect((await send("/app/api/order/quote", { receiver: "TQCq78eKWLd98P5Eu155knhkacGPAhS9pX", amount: 100_000, durationSec: 3600 })).status).toBe(422);
    const quote = (await (await send("/app/api/order/quote", { receiver: RECEIVER, amount: 100_000, durationSec: 3600 })).json()) as {
      quoteId: string;
      totalSun: string;
    };
    expect(quote.totalSun).toBe(options.tiers.find((t) => t.durationSec === 3600)!.totalSun);
    // Another user's launch data cannot confirm this chat's quote.
    const stranger = initFor(w, 7508);
    expect((await send("/app/api/order/confirm", { quoteId: quote.quoteId }, stranger)).status).toBe(403);
    const posts = () => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders").length;
    const [first, second] = await Promise.all([
      send("/app/api/order/confirm", { quoteId: quote.quoteId }),
      send("/app/api/order/confirm", { quoteId: quote.quoteId }),
    ]);
    const answers = [(await first.json()) as { status: string; orderIds?: string[] }, (await second.json()) as { status: string; orderIds?: string[] }];
    const placed = answers.find((a) => a.status === "placed")!;
    const orderId = placed.orderIds![0]!;
    await waitFor(() => w.botTexts(7507, new RegExp(orderId)).length > 0, "the order's card in the chat");
    const again = (await (await send("/app/api/order/confirm", { quoteId: quote.quoteId })).json()) as { status: string; orderIds: string[] };
    expect(again).toMatchObject({ status: "placed", orderIds: [orderId] });
    expect(posts()).toBeGreaterThanOrEqual(1);
    // However many POSTs the key made, the service holds one order for this quote, charged once.
    const service = (await (await fetch(`${w.sim.baseUrl}/v1/balance`, { headers: { authorization: `Bearer ${w.demo.apiKey}` } })).json()) as {
      availableSun: number;
    };
    expect(BigInt(service.availableSun)).toBe(1_000_000_000n - BigInt(quote.totalSun));
  });

  it("asks a second tap above the chat's threshold, as the chat does, and charges once it comes", async () => {
    const { w, base } = await linkedWithOrders(7510, 0);
    const init = initFor(w, 7510);
    const send = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "X-Telegram-Init-Data": init, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // The threshold as the Limits screen sets it: 1 TRX, under any order's total.
    expect((await send("/app/api/limits", { field: "t", value: "1" })).status).toBe(200);
    const quote = (await (await send("/app/api/order/quote", { receiver: RECEIVER, amount: 100_000, durationSec: 3600 })).json()) as { quoteId: string };
    const posts = () => w.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/orders").length;
    const before = posts();
    const first = (await (await send("/app/api/order/confirm", { quoteId: quote.quoteId })).json()) as { status: string; message?: string };
    expect(first.status).toBe("needs_second_tap");
    expect(first.message).toMatch(/TRX/);
    expect(posts()).toBe(before);
    const second = (await (await send("/app/api/order/confirm", { quoteId: quote.quoteId, confirmedAgain: true })).json()) as {
      status: string;
      orderIds?: string[];
    };
    expect(second.status).toBe("placed");
    await waitFor(() => w.botTexts(7510, new RegExp(second.orderIds![0]!)).length > 0, "the order's card in the chat");
  });

  it("filters the history by refunds and by one receiver, and offers the receivers from the book and the ledger", async () => {
    const { w, base, ids } = await linkedWithOrders(7509, 2);
    const init = initFor(w, 7509);
    const page = async (query: string) => (await (await get(`${base}/app/api/history?${query}`, init)).json()) as { total: number; rows: { id: string }[] };
    expect((await page(`filter=a&receiver=${RECEIVER}`)).rows.map((r) => r.id)).toEqual([...ids].reverse());
    expect((await page(`filter=o&receiver=${RECEIVER}`)).total).toBe(2);
    expect((await page("filter=a&receiver=TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf")).total).toBe(0);
    // Orders are never refunded by the service (only a failed broadcast's fee is): nothing here.
    expect((await page("filter=r")).total).toBe(0);
    expect((await get(`${base}/app/api/history?filter=a&receiver=nonsense`, init)).status).toBe(400);
    const receivers = (await (await get(`${base}/app/api/history/receivers`, init)).json()) as { receivers: { address: string }[] };
    expect(receivers.receivers.map((r) => r.address)).toContain(RECEIVER);
    expect((await get(`${base}/app/api/history/receivers`, initFor(w, 7510))).status).toBe(403);
  });

  it("hands a USDT transfer over to /send's signing page: the same quote, a one-time link, nobody else's intent", async () => {
    const { w, base } = await linkedWithOrders(7511, 0);
    const init = initFor(w, 7511);
    const post = (path: string, body: unknown, initData = init) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "X-Telegram-Init-Data": initData, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const me = (await (await get(`${base}/app/api/me`, init)).json()) as { send: boolean };
    expect(me.send).toBe(true);
    const bad = (await (await post("/app/api/send/quote", { recipient: "nobody", amount: "5" })).json()) as { error: string; message: string };
    expect(bad).toMatchObject({ error: "bad_recipient" });
    expect(bad.message).toContain("nobody");
    expect((await post("/app/api/send/quote", { recipient: RECEIVER, amount: "1,2,3" })).status).toBe(422);
    const quote = (await (await post("/app/api/send/quote", { recipient: RECEIVER, amount: "25.5" })).json()) as { intentId: string; text: string };
    expect(quote.text).toContain("25.5 USDT");
    expect(quote.text).toContain(RECEIVER);
    expect(quote.text).not.toMatch(/<\/?b>/);
    // Unlinked, another user sees no account; linked (to any account), this chat's intent is as unknown to it as a made-up one.
    expect((await post("/app/api/send/confirm", { intentId: quote.intentId }, initFor(w, 7512))).status).toBe(403);
    await w.say(7512, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    const foreign = await post("/app/api/send/confirm", { intentId: quote.intentId }, initFor(w, 7512));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ status: "expired" });
    const confirmed = (await (await post("/app/api/send/confirm", { intentId: quote.intentId })).json()) as { status: string; url: string };
    expect(confirmed.status).toBe("link");
    const token = /^https:\/\/bot\.example\.test\/sign\/([A-Za-z0-9_-]{24})$/.exec(confirmed.url)?.[1];
    expect(token).toBeDefined();
    const page = await get(`${base}/sign/${token}`);
    expect(page.status).toBe(200);
  });

  it("changes the chat's time zone through /settings' setter, found by /settings' search", async () => {
    const { w, base } = await linkedWithOrders(7513, 0);
    const init = initFor(w, 7513);
    const post = (body: unknown) =>
      fetch(`${base}/app/api/limits/zone`, {
        method: "POST",
        headers: { "X-Telegram-Init-Data": init, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const zones = async (query: string) =>
      (await (await get(`${base}/app/api/limits/zones${query}`, init)).json()) as { zones: { zone: string }[]; message?: string; offsets?: unknown[] };
    expect((await zones("")).offsets?.length).toBeGreaterThan(20);
    expect((await zones("?q=Berlin")).zones.map((z) => z.zone)).toEqual(["Europe/Berlin"]);
    expect((await zones("?q=Москва")).zones.map((z) => z.zone)).toEqual(["Europe/Moscow"]);
    expect((await zones("?q=Atlantis")).message).toContain("Atlantis");
    expect((await zones("?offset=330")).zones.map((z) => z.zone)).toContain("Asia/Kolkata");
    expect((await post({ zone: "Mars/Olympus" })).status).toBe(400);
    const saved = (await (await post({ zone: "Europe/Berlin" })).json()) as { message: string; zone: string };
    expect(saved.message).toContain("Berlin");
    const me = (await (await get(`${base}/app/api/me`, init)).json()) as { timeZone: string };
    expect(me.timeZone).toBe("Europe/Berlin");
    const settings = await w.say(7513, "/settings", (m) => m.text.length > 0);
    expect(settings.text + JSON.stringify(settings)).toContain("Berlin");
  });

  it("offers no Mini App with an http PUBLIC_URL and says why in the log", async () => {
    const { w, target } = world;
    await w.startApp(target, { PUBLIC_URL: "http://127.0.0.1:9" });
    expect(w.logs.some((l) => /PUBLIC_URL is not https: the Mini App is served at \/app but not offered/.test(String((l as { msg?: unknown }).msg)))).toBe(
      true,
    );
    const button = (await (await fetch(`${w.tg.apiRoot}/bot${w.tg.token}/getChatMenuButton`)).json()) as { result: unknown };
    expect(button.result).toEqual({ type: "commands" });
  });

  it("starts a keep plan from the New plan form as the chat's Start does, its card in the chat, and edits its limits", async () => {
    const { w, base } = await linkedWithOrders(7510, 0);
    const init = initFor(w, 7510);
    const post = (path: string, body: unknown, initData = init) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "X-Telegram-Init-Data": initData, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const options = (await (await get(`${base}/app/api/keep/options`, init)).json()) as {
      amountMax: number;
      tiers: { durationSec: number }[];
      windows: { code: string; label: string }[];
    };
    expect(options.windows.map((x) => x.label)).toEqual(["🌙 Until tonight", "⏱ For 24 h", "🏢 Working hours 09–18"]);
    const form = { receiver: RECEIVER, amount: 65_000, durationSec: 3600, until: null, hours: "h", cap: null };

    // The proposal is the chat's own, word for word: the same plan typed in /keep.
    const preview = (await (await post("/app/api/keep/preview", form)).json()) as { text: string; capPresets: { value: string; label: string }[] };
    const typed = await w.say(7510, `/keep ${RECEIVER} 65000 1h hours=09:00-18:00`, (m) => m.text.includes("Keep charged"));
    expect(preview.text).toBe(typed.text);
    expect(preview.capPresets.map((c) => c.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^🧢 \d+ TRX\/day$/)]));

    // Refused as /keep refuses the same plan typed.
    const badReceiver = await post("/app/api/keep/preview", { ...form, receiver: "not-an-address" });
    expect(badReceiver.status).toBe(422);
    expect(((await badReceiver.json()) as { message: string }).message).toContain("not-an-address");
    const tooMuch = await post("/app/api/keep/start", { ...form, amount: options.amountMax + 1 });
    expect(tooMuch.status).toBe(422);
    expect(await post("/app/api/keep/start", { ...form, hours: "t" }).then((r) => r.status)).toBe(400);
    const badCap = await post("/app/api/keep/preview", { ...form, cap: "abc" });
    expect(badCap.status).toBe(422);
    expect(((await badCap.json()) as { message: string }).message).toContain("is not a daily cap");
    // Another user (no account in their chat) gets nothing.
    expect((await post("/app/api/keep/start", form, initFor(w, 7511))).status).toBe(403);

    // Frozen: no plan starts, as in the chat.
    expect((await post("/app/api/limits/freeze", { frozen: true })).status).toBe(200);
    const frozen = await post("/app/api/keep/start", form);
    expect(frozen.status).toBe(409);
    expect(((await frozen.json()) as { message: string }).message).toContain("frozen");
    expect((await post("/app/api/limits/freeze", { frozen: false })).status).toBe(200);

    const started = await post("/app/api/keep/start", { ...form, hours: null, cap: "500" });
    expect(started.status).toBe(200);
    const { planId } = (await started.json()) as { planId: string };
    // One card in the chat, drawn over the message the app sent, with the first order placed.
    await waitFor(() => w.botTexts(7510, /Plan: keep charged[\s\S]*Orders placed: 1/).length === 1, "the plan's card with its first order");
    expect(w.botTexts(7510, /Plan: keep charged/)).toHaveLength(1);
    expect(w.botTexts(7510, /started from the app/)).toHaveLength(0);

    // Edit: the chat's presets, read as a proposal's; the card in the chat is drawn again.
    const editPreview = (await (await post("/app/api/keep/edit", { planId, until: "d", hours: "=", cap: "=", preview: true })).json()) as { text: string };
    expect(editPreview.text).toContain("At most 500 TRX per day.");
    expect(editPreview.text).toContain("Runs until");
    const edited = await post("/app/api/keep/edit", { planId, until: null, hours: "h", cap: "200" });
    expect(edited.status).toBe(200);
    await waitFor(() => w.botTexts(7510, /Plan: keep charged[\s\S]*At most 200 TRX per day[\s\S]*09:00–18:00/).length === 1, "the card with the new limits");
    const list = (await (await get(`${base}/app/api/keep`, init)).json()) as { plans: { planId: string; text: string }[] };
    expect(list.plans.find((p) => p.planId === planId)?.text).toContain("Orders placed: 1");
    expect((await post("/app/api/keep/edit", { planId, until: null, hours: null, cap: "two" })).status).toBe(422);

    // Another linked chat cannot see or edit this chat's plan.
    await w.say(7512, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    expect((await post("/app/api/keep/edit", { planId, until: null, hours: null, cap: null }, initFor(w, 7512))).status).toBe(404);
  });
});

describe("the fake Bot API's Mini App rules", () => {
  const world = useSqliteAppWorld();
  it("refuses a menu button or a web_app button that is not https", async () => {
    const { w } = world;
    w.tg.addChat(7506);
    const call = async (method: string, params: Record<string, unknown>) =>
      (await (
        await fetch(`${w.tg.apiRoot}/bot${w.tg.token}/${method}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(params),
        })
      ).json()) as { ok: boolean; description?: string };
    expect(await call("setChatMenuButton", { menu_button: { type: "web_app", text: "App", web_app: { url: "http://a.test/app" } } })).toMatchObject({
      ok: false,
      description: "Bad Request: Only HTTPS links are allowed",
    });
    expect(
      await call("sendMessage", { chat_id: 7506, text: "x", reply_markup: { inline_keyboard: [[{ text: "App", web_app: { url: "http://a.test/app" } }]] } }),
    ).toMatchObject({ ok: false, description: "Bad Request: Only HTTPS links are allowed" });
    expect(
      await call("sendMessage", { chat_id: 7506, text: "x", reply_markup: { inline_keyboard: [[{ text: "App", web_app: { url: "https://a.test/app" } }]] } }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await call("setChatMenuButton", { chat_id: 7506, menu_button: { type: "web_app", text: "App", web_app: { url: "https://a.test/app" } } }),
    ).toMatchObject({ ok: true });
    expect(await call("getChatMenuButton", { chat_id: 7506 })).toMatchObject({ result: { type: "web_app" } });
  });

  it("refuses a web_app inline button in a group, as Telegram does (it opens them only in private chats)", async () => {
    const { w } = world;
    w.tg.addChat(-1007507, { type: "supergroup" });
    const response = await fetch(`${w.tg.apiRoot}/bot${w.tg.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: -1007507, text: "x", reply_markup: { inline_keyboard: [[{ text: "App", web_app: { url: "https://a.test/app" } }]] } }),
    });
    expect(await response.json()).toMatchObject({ ok: false, description: "Bad Request: BUTTON_TYPE_INVALID" });
  });
});
