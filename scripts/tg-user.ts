/**
 * `npm run -s sandbox:user -- <chatId> <action> …`: act as a Telegram user
 * against the bot running on the sandbox (scripts/sandbox.ts). SANDBOX_URL
 * points at the control API (default http://127.0.0.1:8790).
 */
const USAGE = `usage: sandbox:user -- <chatId> <action> [args] [--from <userId>] [--lang <code>] [--json]

  <chatId> send "<text>"          send a text or command (groups: --from <userId>)
  <chatId> press "<label>"        press a button by its label on the newest message showing it
                                  (--re: label is a regexp; --msg <id>: on that message; --twice: double tap)
  <chatId> raw <messageId> <data> a callback with arbitrary data on a message (forged/stale buttons)
  <chatId> show [--all]           what the chat shows now (--all: deleted messages too)
  <chatId> inline "<query>"       an inline query from user <chatId>; prints the results
  <chatId> doc <path>             upload a document (--caption "...", --name x.json, --mime type)
  <chatId> photo | sticker        send a photo (--caption "...") or a sticker
  <chatId> wait [seconds]         wait for the bot's next message or edit (notifications)
  <chatId> setup group|supergroup|private [--title T] [--can-delete]
  <chatId> join | leave           the bot is added to / removed from the chat
  <chatId> hook [url]             simulator webhooks for the demo key go to this URL
                                  (default: the newest .../hooks/<routeId> shown in the chat; --account name)
  tx [usdt|trx|call] [amount]     print an offline-signed transaction (--to addr, --signer alice|bob|...,
                                  --expires <sec>, --visible)
  sim credit <sun> | balance | outcome confirmed|failed|expired [txId] | pause on|off | down | up | hooks
                                  (--account demo|poor|nowallet)
  calls [--failed]                the bot's recent Bot API calls
  info                            sandbox environment and keys`;

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const valued = new Set(["from", "lang", "msg", "caption", "name", "mime", "title", "to", "signer", "expires", "account"]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("--") && a.length > 2) {
      const name = a.slice(2);
      if (valued.has(name)) flags.set(name, argv[++i] ?? "");
      else flags.set(name, true);
    } else positional.push(a);
  }
  return { positional, flags };
}

const base = (process.env["SANDBOX_URL"] ?? "http://127.0.0.1:8790").replace(/\/+$/, "");

async function call(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new Error(`cannot reach the sandbox at ${base}: is \`npm run sandbox\` running?`);
  }
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(typeof json["error"] === "string" ? json["error"] : `HTTP ${res.status}`);
  return json;
}

async function main(): Promise<number> {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  const str = (name: string): string | undefined => {
    const v = flags.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const num = (name: string): number | undefined => (str(name) === undefined ? undefined : Number(str(name)));
  const who = { ...(num("from") !== undefined ? { from: num("from") } : {}), ...(str("lang") ? { lang: str("lang") } : {}) };
  const [first, action, ...rest] = positional;
  let result: Record<string, unknown>;

  if (!first || first === "help" || flags.has("help")) {
    process.stdout.write(`${USAGE}\n`);
    return first ? 0 : 1;
  }
  if (first === "info") result = await call("GET", "/info");
  else if (first === "calls") result = await call("GET", `/calls${flags.has("failed") ? "?failed=1" : ""}`);
  else if (first === "tx") {
    result = await call("POST", "/tx", {
      kind: action ?? "usdt",
      ...(rest[0] ? { amount: rest[0] } : {}),
      ...(str("to") ? { to: str("to") } : {}),
      ...(str("signer") ? { signer: str("signer") } : {}),
      ...(num("expires") !== undefined ? { expiresInSec: num("expires") } : {}),
      ...(flags.has("visible") ? { visible: true } : {}),
    });
    process.stdout.write(`${JSON.stringify(result["tx"])}\n`);
    return 0;
  } else if (first === "sim") {
    const account = str("account") ? { account: str("account") } : {};
    const body: Record<string, unknown> = { op: action, ...account };
    if (action === "credit") body["sun"] = Number(rest[0]);
    if (action === "outcome") Object.assign(body, { outcome: rest[0], ...(rest[1] ? { txId: rest[1] } : {}) });
    if (action === "pause") body["on"] = rest[0] !== "off";
    result = await call("POST", "/sim", body);
  } else {
    const chatId = Number(first);
    if (!Number.isInteger(chatId)) throw new Error(`chatId must be an integer, got ${first}\n${USAGE}`);
    const chat = `/chat/${chatId}`;
    switch (action) {
      case "send":
        result = await call("POST", `${chat}/send`, { text: rest.join(" "), ...who });
        break;
      case "press":
        result = await call("POST", `${chat}/press`, {
          label: rest.join(" "),
          ...(flags.has("re") ? { regex: true } : {}),
          ...(flags.has("twice") ? { twice: true } : {}),
          ...(num("msg") !== undefined ? { messageId: num("msg") } : {}),
          ...who,
        });
        break;
      case undefined:
      case "show":
        result = await call("GET", `${chat}${flags.has("all") ? "?all=1" : ""}`);
        break;
      case "inline":
        result = await call("POST", `/user/${chatId}/inline`, { query: rest.join(" "), ...(str("lang") ? { lang: str("lang") } : {}) });
        break;
      case "raw":
        result = await call("POST", `${chat}/raw`, { messageId: Number(rest[0]), data: rest[1] ?? "", ...who });
        break;
      case "doc":
        if (!rest[0]) throw new Error("doc needs a file path");
        result = await call("POST", `${chat}/doc`, {
          path: rest[0],
          ...(str("caption") ? { caption: str("caption") } : {}),
          ...(str("name") ? { fileName: str("name") } : {}),
          ...(str("mime") ? { mime: str("mime") } : {}),
          ...who,
        });
        break;
      case "photo":
        result = await call("POST", `${chat}/photo`, { ...(str("caption") ? { caption: str("caption") } : {}), ...who });
        break;
      case "sticker":
        result = await call("POST", `${chat}/sticker`, who);
        break;
      case "wait":
        result = await call("POST", `${chat}/wait`, { seconds: rest[0] ? Number(rest[0]) : 15 });
        break;
      case "setup":
        result = await call("POST", `${chat}/setup`, {
          ...(rest[0] ? { type: rest[0] } : {}),
          ...(str("title") ? { title: str("title") } : {}),
          ...(str("lang") ? { lang: str("lang") } : {}),
          ...(flags.has("can-delete") ? { botCanDelete: true } : {}),
        });
        break;
      case "join":
      case "leave":
        result = await call("POST", `${chat}/${action}`, who);
        break;
      case "hook":
        result = await call("POST", `${chat}/hook`, { ...(rest[0] ? { url: rest[0] } : {}), ...(str("account") ? { account: str("account") } : {}) });
        break;
      default:
        throw new Error(`unknown action ${action}\n${USAGE}`);
    }
  }
  process.stdout.write(flags.has("json") || typeof result["text"] !== "string" ? `${JSON.stringify(result, null, 2)}\n` : `${result["text"]}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
