/**
 * `npx tsx scripts/walk-messages.ts [--lang en,ru,zh] …`: walks the main user
 * flows against a running sandbox and bot (docs/sandbox.md) in one fresh
 * private chat per language, and prints how many bot messages each flow
 * leaves in the chat (visible after minus visible before; edits are counted
 * apart). It talks to the sandbox's control API over HTTP only (SANDBOX_URL,
 * default http://127.0.0.1:8790) and imports nothing from the repository, so
 * the same file measures any checkout whose sandbox has that API.
 *
 * Options:
 *   --lang en,ru,zh      languages to walk, one chat each, one after another (default all three)
 *   --chat-base N        chat ids are N+1 (en), N+2 (ru), N+3 (zh); default derived from the clock
 *   --flows 0,1,2,…      only these flows (0 = /language; see FLOWS below); later flows may need /link (1)
 *   --keep-seconds S     how long the keep plan runs before it is stopped (default 180)
 *   --keep-renewals N    stop the keep plan as soon as N renewals happened (default: wait the full time)
 *   --account NAME       the sandbox account /link uses (default demo; the control API cannot create accounts)
 *   --receiver ADDR      receiver of the orders (default bob, the sandbox's test key TQCq78…)
 *   --json               print the raw results as JSON after the tables
 *   --verbose            log every action and what it changed
 */

type Json = Record<string, unknown>;

interface Button {
  text: string;
  kind: string;
  value?: string;
}

interface Msg {
  messageId: number;
  from: "bot" | "user";
  text: string;
  edits: number;
  deleted: boolean;
  buttons: Button[][];
  photo?: string;
  document?: string;
}

interface Row {
  flow: string;
  lang: string;
  chatId: number;
  /** Bot messages visible after the flow minus before; null when the flow could not run at all. */
  delta: number | null;
  /** Bot messages sent during the flow (deleted ones included). */
  sent: number;
  /** Bot messages deleted during the flow (older ones included). */
  deleted: number;
  /** Edits of bot messages during the flow. */
  edits: number;
  /** User messages the bot deleted (the /link key). */
  userDeleted: number;
  /** Per-step visible deltas and remarks. */
  notes: string[];
}

const LANGS = {
  en: { telegram: "en", button: "English" },
  ru: { telegram: "ru", button: "Русский" },
  zh: { telegram: "zh-hans", button: "中文" },
} as const;
type Lang = keyof typeof LANGS;

const BOB = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu"; // testkit/tron-sign.ts TEST_KEYS.bob
const FULFILLED = /fulfilled|выполнен|已完成/i;
const ONE_HOUR = "1 ?h|1 ?ч|1 ?小时";
const CONFIRM = "✅";

// ---------- arguments ----------

function parseArgs(argv: string[]): Map<string, string | true> {
  const flags = new Map<string, string | true>();
  const valued = new Set(["lang", "chat-base", "flows", "keep-seconds", "keep-renewals", "account", "receiver"]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const name = a.slice(2);
    if (valued.has(name)) {
      const v = argv[++i];
      if (v === undefined) throw new Error(`--${name} needs a value`);
      flags.set(name, v);
    } else if (name === "json" || name === "verbose" || name === "help") flags.set(name, true);
    else throw new Error(`unknown option --${name}`);
  }
  return flags;
}

const flags = parseArgs(process.argv.slice(2));
const opt = (name: string): string | undefined => {
  const v = flags.get(name);
  return typeof v === "string" ? v : undefined;
};
const verbose = flags.has("verbose");
const base = (process.env["SANDBOX_URL"] ?? "http://127.0.0.1:8790").replace(/\/+$/, "");
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// ---------- control API ----------

async function call(method: "GET" | "POST", path: string, body?: Json): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new Error(`cannot reach the sandbox's control API at ${base} (set SANDBOX_URL)`);
  }
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(typeof json["error"] === "string" ? json["error"] : `HTTP ${res.status} for ${method} ${path}`);
  return json;
}

/** Every message of the chat, deleted ones included (GET /chat/:id?all=1). */
async function history(chatId: number): Promise<Msg[]> {
  const json = await call("GET", `/chat/${chatId}?all=1`);
  return (json["messages"] as Msg[] | undefined) ?? [];
}

async function debits(account: string): Promise<string[]> {
  const json = await call("POST", "/sim", { op: "balance", account });
  const ledger = (json["ledger"] as { kind: string; ref?: string }[] | undefined) ?? [];
  return ledger.filter((e) => e.kind === "debit").map((e) => e.ref ?? "?");
}

const signature = (msgs: Msg[]): string => msgs.map((m) => `${m.messageId}:${m.edits}:${m.deleted ? 1 : 0}`).join(",");
const visibleBot = (msgs: Msg[]): number => msgs.filter((m) => m.from === "bot" && !m.deleted).length;
const firstLine = (m: Msg): string => (m.text.split("\n").find((l) => l.trim() !== "") ?? (m.photo ? "[photo]" : m.document ? "[document]" : "")).slice(0, 70);

/** Polls the chat until nothing in it changed for quietMs (at most maxMs). */
async function settle(chatId: number, quietMs = 1500, maxMs = 20_000): Promise<Msg[]> {
  const deadline = Date.now() + maxMs;
  let msgs = await history(chatId);
  let sig = signature(msgs);
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(300);
    msgs = await history(chatId);
    const now = signature(msgs);
    if (now !== sig) {
      sig = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) break;
  }
  return msgs;
}

/** Messages new or changed (edited, deleted) compared with `before`. */
function changed(now: Msg[], before: Msg[]): Msg[] {
  const old = new Map(before.map((m) => [m.messageId, m]));
  return now.filter((m) => {
    const o = old.get(m.messageId);
    return !o || o.edits !== m.edits || o.deleted !== m.deleted;
  });
}

// ---------- one chat ----------

class ChatWalker {
  constructor(
    readonly chatId: number,
    readonly lang: Lang,
  ) {}

  private get who(): Json {
    return { lang: LANGS[this.lang].telegram };
  }

  private check(result: Json): void {
    if (result["fetched"] === false) throw new Error(String(result["text"]));
    if (verbose && typeof result["text"] === "string") log(`    ${result["text"].replace(/\n/g, "\n    ")}`);
  }

  async send(text: string): Promise<Msg[]> {
    if (verbose) log(`  [${this.lang} ${this.chatId}] send ${text}`);
    this.check(await call("POST", `/chat/${this.chatId}/send`, { text, ...this.who }));
    return settle(this.chatId);
  }

  /**
   * Presses the first button whose label matches `pattern` on the newest visible bot message
   * showing one — among the messages new or changed since `scope` when given (so a Confirm
   * never lands on an older card). Returns false when no such button is there.
   */
  async press(pattern: string, scope?: Msg[]): Promise<boolean> {
    const re = new RegExp(pattern, "i");
    const now = await history(this.chatId);
    const pool = (scope ? changed(now, scope) : now).filter((m) => m.from === "bot" && !m.deleted);
    const target = pool.filter((m) => m.buttons.flat().some((b) => b.kind === "callback_data" && re.test(b.text))).sort((a, b) => b.messageId - a.messageId)[0];
    if (!target) {
      if (verbose) log(`  [${this.lang} ${this.chatId}] press /${pattern}/: no such button`);
      return false;
    }
    if (verbose) log(`  [${this.lang} ${this.chatId}] press /${pattern}/ on #${target.messageId}`);
    this.check(await call("POST", `/chat/${this.chatId}/press`, { label: pattern, regex: true, messageId: target.messageId, ...this.who }));
    await settle(this.chatId);
    return true;
  }

  /** Waits until a message new or changed since `scope` matches, polling the chat; then lets it settle. */
  async waitFor(re: RegExp, scope: Msg[], timeoutMs: number): Promise<number | undefined> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const now = await history(this.chatId);
      if (changed(now, scope).some((m) => m.from === "bot" && !m.deleted && re.test(m.text))) {
        const took = Date.now() - started;
        await settle(this.chatId, 2500);
        return took;
      }
      await sleep(500);
    }
    return undefined;
  }

  /** Runs a flow and counts what it left in the chat. */
  async measure(flow: string, body: (m: Measure) => Promise<void>): Promise<Row> {
    const before = await settle(this.chatId, 1000);
    const m = new Measure(this, before);
    let failed = false;
    try {
      await body(m);
    } catch (error) {
      failed = true;
      m.note(`error: ${error instanceof Error ? error.message : String(error)}`);
    }
    const after = await settle(this.chatId);
    const row = count(flow, this.lang, this.chatId, before, after, m.notes);
    if (failed && row.sent === 0 && row.deleted === 0 && row.edits === 0) row.delta = null;
    if (verbose) log(`  => ${flow}: ${row.delta ?? "n/a"} (${row.edits} edits) ${row.notes.join("; ")}`);
    return row;
  }
}

/** The running flow: steps with their own visible deltas. */
class Measure {
  readonly notes: string[] = [];
  private mark: Msg[];

  constructor(
    readonly chat: ChatWalker,
    readonly before: Msg[],
  ) {
    this.mark = before;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** Notes the visible bot messages added since the previous step under `label`. */
  async step(label: string): Promise<void> {
    const now = await history(this.chat.chatId);
    const d = visibleBot(now) - visibleBot(this.mark);
    const e = editsBetween(this.mark, now);
    this.notes.push(`${label} ${d >= 0 ? "+" : ""}${d}${e ? `/${e}e` : ""}`);
    this.mark = now;
  }

  async send(text: string, label = text): Promise<void> {
    await this.chat.send(text);
    await this.step(label);
  }

  /**
   * Presses a button (see ChatWalker.press) on a message new or changed since `scope`: "flow" = since
   * the flow began, a snapshot = since then, "any" = the newest message showing it. Notes n/a when missing.
   */
  async press(pattern: string, label: string, scope: "flow" | "any" | Msg[] = "flow"): Promise<boolean> {
    const ok = await this.chat.press(pattern, scope === "any" ? undefined : scope === "flow" ? this.before : scope);
    if (ok) await this.step(label);
    else this.notes.push(`${label} n/a`);
    return ok;
  }

  async waitFulfilled(timeoutMs = 60_000, scope: Msg[] = this.before): Promise<boolean> {
    const took = await this.chat.waitFor(FULFILLED, scope, timeoutMs);
    await this.step(took === undefined ? `not fulfilled in ${Math.round(timeoutMs / 1000)}s` : `fulfilled (${(took / 1000).toFixed(1)}s)`);
    return took !== undefined;
  }

  /** The current chat, as the next step's scope. */
  snapshot(): Promise<Msg[]> {
    return history(this.chat.chatId);
  }
}

function editsBetween(before: Msg[], after: Msg[]): number {
  const old = new Map(before.map((m) => [m.messageId, m]));
  return after.filter((m) => m.from === "bot").reduce((sum, m) => sum + m.edits - (old.get(m.messageId)?.edits ?? 0), 0);
}

function count(flow: string, lang: string, chatId: number, before: Msg[], after: Msg[], notes: string[]): Row {
  const old = new Map(before.map((m) => [m.messageId, m]));
  const bot = after.filter((m) => m.from === "bot");
  return {
    flow,
    lang,
    chatId,
    delta: visibleBot(after) - visibleBot(before),
    sent: bot.filter((m) => !old.has(m.messageId)).length,
    deleted: bot.filter((m) => m.deleted && !old.get(m.messageId)?.deleted).length,
    edits: editsBetween(before, after),
    userDeleted: after.filter((m) => m.from === "user" && m.deleted && !old.get(m.messageId)?.deleted).length,
    notes,
  };
}

// ---------- the flows ----------

interface Context {
  apiKey: string;
  secret: string;
  receiver: string;
  account: string;
  keepSeconds: number;
  keepRenewals: number | undefined;
}

type Flow = { id: number; run: (w: ChatWalker, ctx: Context) => Promise<Row[]> };

const one = (name: string, body: (m: Measure, ctx: Context) => Promise<void>) => async (w: ChatWalker, ctx: Context) => [
  await w.measure(name, (m) => body(m, ctx)),
];

const FLOWS: Flow[] = [
  {
    id: 0,
    run: one("0 /language", async (m) => {
      await m.send("/language");
      await m.press(LANGS[m.chat.lang].button, LANGS[m.chat.lang].button);
    }),
  },
  {
    id: 1,
    run: one("1 /link KEY SECRET", async (m, ctx) => {
      await m.send(`/link ${ctx.apiKey} ${ctx.secret}`, "/link");
    }),
  },
  { id: 2, run: one("2 /start", (m) => m.send("/start")) },
  {
    id: 3,
    run: one("3 menu buttons", async (m) => {
      // The home card flow 2 left; sent again only when no message shows the menu.
      if (!(await m.snapshot()).some((x) => x.from === "bot" && !x.deleted && x.buttons.flat().some((b) => /^📜/.test(b.text)))) {
        await m.send("/start", "/start (no menu on screen)");
      }
      for (const [pattern, label] of [
        ["^📜", "📜"],
        ["^⚙", "⚙️"],
        ["^📈", "📈"],
        ["^❓", "❓"],
      ] as const) {
        // The menu button on the newest message showing it (the home card, or the card Home brought back).
        const before = await m.snapshot();
        if (await m.press(pattern, label, "any")) await m.press("^◀", "◀️", before);
      }
    }),
  },
  {
    id: 4,
    run: one("4 guided /order", async (m, ctx) => {
      await m.send("/order");
      await m.send(ctx.receiver, "address");
      await m.send("65000");
      if (!(await m.press(ONE_HOUR, "1h"))) return;
      if (!(await m.press(CONFIRM, "✅"))) return;
      await m.waitFulfilled();
    }),
  },
  {
    id: 5,
    run: one("5 one-shot /order", async (m, ctx) => {
      await m.send(`/order ${ctx.receiver} 65000 1h`, "/order A 65000 1h");
      if (!(await m.press(CONFIRM, "✅"))) return;
      await m.waitFulfilled();
    }),
  },
  {
    id: 6,
    run: one("6 /balance", async (m) => {
      await m.send("/balance");
      await m.press("🔄", "🔄");
      await m.press("💳", "💳");
    }),
  },
  {
    id: 7,
    run: one("7 pasted address", async (m, ctx) => {
      const start = await m.snapshot();
      await m.send(ctx.receiver, "address");
      const now = await m.snapshot();
      const fresh = changed(now, start).filter((x) => x.from === "bot" && !x.deleted);
      if (!fresh.some((x) => x.buttons.flat().some((b) => /^(65[kк]|6\.5万)/i.test(b.text)))) {
        m.note(`no preset card; bot: ${fresh.map((x) => `“${firstLine(x)}”`).join(" ") || "nothing"}`);
        return;
      }
      const preset = await m.snapshot();
      if (!(await m.press("^(65[kк]|6\\.5万)", "65k"))) return;
      // A preset may place the order at once; Confirm only when a confirmation shows up.
      await m.press(CONFIRM, "✅", preset);
      await m.waitFulfilled();
    }),
  },
  { id: 8, run: one("8 /statement", (m) => m.send("/statement")) },
  { id: 9, run: one("9 /limits", (m) => m.send("/limits")) },
  {
    id: 10,
    run: async (w, ctx) => {
      const rows: Row[] = [];
      let first: string[] = [];
      rows.push(
        await w.measure("10a /keep + Start", async (m) => {
          first = await debits(ctx.account);
          await m.send(`/keep ${ctx.receiver} 65000 1m`, "/keep A 65000 1m");
          if (!(await m.press("✅|▶️", "Start"))) throw new Error("no Start button");
          await m.waitFulfilled(30_000);
        }),
      );
      const started = first;
      let renewals = 0;
      rows.push(
        await w.measure("10b keep renewals", async (m) => {
          const t0 = Date.now();
          const placed = async () => (await debits(ctx.account)).length - started.length;
          while (Date.now() - t0 < ctx.keepSeconds * 1000) {
            await sleep(2000);
            renewals = Math.max(0, (await placed()) - 1);
            if (ctx.keepRenewals !== undefined && renewals >= ctx.keepRenewals) break;
          }
          // A renewal caught mid-way: let its notice land in this row.
          await settle(w.chatId, 4000, 30_000);
          renewals = Math.max(0, (await placed()) - 1);
          m.note(`${renewals} renewal(s) in ${Math.round((Date.now() - t0) / 1000)}s (simulator orders of the plan: ${await placed()})`);
        }),
      );
      rows.push(
        await w.measure("10c /keep + Stop", async (m) => {
          await m.send("/keep");
          if (!(await m.press("⏹", "⏹"))) throw new Error("no Stop button on /keep");
        }),
      );
      return rows;
    },
  },
];

// ---------- tables ----------

function cell(r: Row | undefined): string {
  if (!r) return "";
  if (r.delta === null) return "n/a";
  return `${r.delta >= 0 ? "+" : ""}${r.delta}${r.edits ? ` (${r.edits}e)` : ""}`;
}

function table(head: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

// ---------- main ----------

async function main(): Promise<void> {
  if (flags.has("help")) {
    process.stdout.write(
      `${(/\/\*\*([\s\S]*?)\*\//.exec((await import("node:fs")).readFileSync(new URL(import.meta.url), "utf8"))?.[1] ?? "").replace(/^ \* ?/gm, "")}\n`,
    );
    return;
  }
  const langs = (opt("lang") ?? "en,ru,zh").split(",").map((l) => l.trim()) as Lang[];
  for (const l of langs) if (!(l in LANGS)) throw new Error(`--lang: ${l} is not one of ${Object.keys(LANGS).join(", ")}`);
  const wanted = opt("flows")
    ?.split(",")
    .map((s) => Number(s.trim()));
  const chatBase = opt("chat-base") !== undefined ? Number(opt("chat-base")) : 5_000_000 + (Math.floor(Date.now() / 1000) % 100_000) * 10;
  if (!Number.isSafeInteger(chatBase) || chatBase <= 0) throw new Error("--chat-base must be a positive integer");

  const info = await call("GET", "/info");
  const account = opt("account") ?? "demo";
  const acc = (info["accounts"] as Record<string, { apiKey: string; webhookSecret: string }> | undefined)?.[account];
  if (!acc) throw new Error(`the sandbox has no account "${account}"`);
  const ctx: Context = {
    apiKey: acc.apiKey,
    secret: acc.webhookSecret,
    receiver: opt("receiver") ?? BOB,
    account,
    keepSeconds: Number(opt("keep-seconds") ?? 180),
    keepRenewals: opt("keep-renewals") !== undefined ? Number(opt("keep-renewals")) : undefined,
  };
  log(`walk-messages: control API ${base}, account ${account} (shared by every chat: the control API cannot create accounts), receiver ${ctx.receiver}`);

  const rows: Row[] = [];
  for (const lang of langs) {
    const chatId = chatBase + 1 + (["en", "ru", "zh"] as const).indexOf(lang);
    const w = new ChatWalker(chatId, lang);
    log(`[${lang}] chat ${chatId} (Telegram language ${LANGS[lang].telegram})`);
    for (const flow of FLOWS) {
      if (wanted && !wanted.includes(flow.id)) continue;
      const got = await flow.run(w, ctx);
      for (const r of got) log(`[${lang}] ${r.flow}: ${cell(r)}  ${r.notes.join("; ")}`);
      rows.push(...got);
    }
  }

  const flowNames = [...new Set(rows.map((r) => r.flow))];
  const out: string[] = [];
  out.push(
    `Bot messages left in the chat by each flow (visible after − before; (Ne) = N edits of bot messages). Chats ${langs.map((l) => `${l} ${chatBase + 1 + ["en", "ru", "zh"].indexOf(l)}`).join(", ")}.`,
  );
  out.push("");
  out.push(
    table(
      ["flow", ...langs],
      flowNames.map((f) => [f, ...langs.map((l) => cell(rows.find((r) => r.flow === f && r.lang === l)))]),
    ),
  );
  out.push("");
  out.push(
    table(
      ["flow", "lang", "Δ visible", "sent", "deleted", "edits", "steps (Δ visible/edits) and notes"],
      rows.map((r) => [
        r.flow,
        r.lang,
        r.delta === null ? "n/a" : String(r.delta),
        String(r.sent),
        String(r.deleted) + (r.userDeleted ? ` (+${r.userDeleted} of yours)` : ""),
        String(r.edits),
        r.notes.join("; "),
      ]),
    ),
  );
  process.stdout.write(`${out.join("\n")}\n`);
  if (flags.has("json")) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`walk-messages: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
