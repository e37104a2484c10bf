/**
 * The signing page's script: finds the wallet the page was opened in, checks what it can through the
 * wallet's own node, builds the USDT transfer with the wallet's tronWeb, extends its expiration, asks the
 * wallet to sign (never to send) and hands the signed transaction to the bot by a same-origin request.
 * It loads nothing and talks to no host but the bot and what the wallet's tronWeb reaches itself.
 */

interface PageConfig {
  to: string;
  amountAtomic: string;
  amountText: string;
  usdtContract: string;
  network: string;
  genesisBlockId: string;
  networks: Record<string, string>;
  text: Record<string, string>;
}

interface TronWebLike {
  defaultAddress?: { base58?: string | false } | false;
  trx: {
    getBlockByNumber(n: number): Promise<{ blockID?: string }>;
    getAccountResources(address: string): Promise<Record<string, number | undefined>>;
    sign(tx: unknown): Promise<SignedTx>;
  };
  transactionBuilder: {
    triggerConstantContract(contract: string, fn: string, options: object, params: Param[], from: string): Promise<ConstantAnswer>;
    triggerSmartContract(
      contract: string,
      fn: string,
      options: object,
      params: Param[],
      from: string,
    ): Promise<{ result?: { result?: boolean }; transaction?: Tx }>;
    extendExpiration(tx: Tx, seconds: number, options?: object): Promise<Tx>;
  };
}

interface WalletLike {
  ready?: boolean;
  request?(args: { method: string }): Promise<{ code?: number; message?: string } | undefined>;
  tronWeb?: TronWebLike;
}

type Param = { type: string; value: string };
type Tx = { txID: string; raw_data: { expiration: number } & Record<string, unknown>; raw_data_hex: string };
type SignedTx = Tx & { signature?: string[] };
interface ConstantAnswer {
  constant_result?: string[];
  energy_used?: number;
  result?: { result?: boolean; message?: string };
}

declare global {
  interface Window {
    tronLink?: WalletLike;
    tronWeb?: TronWebLike;
    okxwallet?: { tronLink?: WalletLike };
    bitkeep?: { tronLink?: WalletLike };
  }
}

const FEE_LIMIT_SUN = 100_000_000;
/** A node gives about 60 s; the service wants 75 s left when the bot posts it. Ten minutes leaves room for a slow hand. */
const EXTEND_SECONDS = 600;
const MIN_BANDWIDTH = 350;

const config = JSON.parse(document.getElementById("page-config")!.textContent) as PageConfig;
const $ = (id: string) => document.getElementById(id)!;
const say = (key: string, vars: Record<string, string> = {}): string =>
  Object.entries(vars).reduce((text, [name, value]) => text.replaceAll(`{${name}}`, value), config.text[key] ?? key);

function showStatus(text: string, tone: "info" | "warn" | "error" | "ok" = "info"): void {
  const line = $("status");
  line.textContent = text;
  line.className = `status ${tone}`;
}

function note(text: string): void {
  const item = document.createElement("li");
  item.textContent = text;
  $("notes").append(item);
}

/** TronLink (and wallets that copy its injection), then the wallets the TRON wallet adapters read elsewhere. */
function findWallet(): { wallet: WalletLike | undefined; tronWeb: TronWebLike | undefined } {
  const wallet = window.tronLink ?? window.okxwallet?.tronLink ?? window.bitkeep?.tronLink;
  return { wallet, tronWeb: wallet?.tronWeb ?? window.tronWeb };
}

const addressOf = (tronWeb: TronWebLike): string | undefined => {
  const d = tronWeb.defaultAddress;
  return d && typeof d.base58 === "string" ? d.base58 : undefined;
};

function formatUsdt(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  const fraction = (atomic % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

const transferParams = (): Param[] => [
  { type: "address", value: config.to },
  { type: "uint256", value: config.amountAtomic },
];

async function connect(): Promise<{ tronWeb: TronWebLike; from: string } | undefined> {
  const { wallet, tronWeb } = findWallet();
  if (!tronWeb) {
    showStatus(say("sign-page-no-wallet"), "warn");
    $("no-wallet").hidden = false;
    return undefined;
  }
  showStatus(say("sign-page-connecting"));
  if (wallet?.request) {
    const answer = await wallet.request({ method: "tron_requestAccounts" });
    if (answer && answer.code !== undefined && answer.code !== 200 && !addressOf(tronWeb)) {
      showStatus(say("sign-page-accounts-refused"), "error");
      return undefined;
    }
  }
  const from = addressOf(tronWeb);
  if (!from) {
    showStatus(say("sign-page-accounts-refused"), "error");
    return undefined;
  }
  $("from").textContent = from;
  return { tronWeb, from };
}

/** What the wallet's node says before anything is signed; false when signing would be pointless. */
async function check(tronWeb: TronWebLike, from: string): Promise<boolean> {
  showStatus(say("sign-page-checking"));
  // What the last look found, not every look's.
  $("notes").replaceChildren();
  const genesis = await tronWeb.trx.getBlockByNumber(0);
  if (genesis.blockID?.toLowerCase() !== config.genesisBlockId) {
    const found = config.networks[genesis.blockID?.toLowerCase() ?? ""] ?? genesis.blockID?.slice(-8) ?? "?";
    showStatus(say("sign-page-wrong-network", { found, expected: config.network }), "error");
    return false;
  }
  const balance = await tronWeb.transactionBuilder.triggerConstantContract(
    config.usdtContract,
    "balanceOf(address)",
    {},
    [{ type: "address", value: from }],
    from,
  );
  const held = BigInt(`0x${balance.constant_result?.[0] || "0"}`);
  if (held < BigInt(config.amountAtomic)) {
    showStatus(say("sign-page-low-usdt", { balance: formatUsdt(held), amount: config.amountText }), "error");
    return false;
  }
  const resources = await tronWeb.trx.getAccountResources(from);
  const bandwidth = (resources["freeNetLimit"] ?? 0) - (resources["freeNetUsed"] ?? 0) + (resources["NetLimit"] ?? 0) - (resources["NetUsed"] ?? 0);
  if (bandwidth < MIN_BANDWIDTH) note(say("sign-page-low-bandwidth"));
  const simulated = await tronWeb.transactionBuilder.triggerConstantContract(config.usdtContract, "transfer(address,uint256)", {}, transferParams(), from);
  if (simulated.energy_used) note(say("sign-page-energy", { energy: simulated.energy_used.toLocaleString(document.documentElement.lang) }));
  return true;
}

/** True once the bot has the signed transaction (whatever it answered); false when the wallet declined. */
async function signAndSend(tronWeb: TronWebLike, from: string): Promise<boolean> {
  showStatus(say("sign-page-building"));
  const built = await tronWeb.transactionBuilder.triggerSmartContract(
    config.usdtContract,
    "transfer(address,uint256)",
    { feeLimit: FEE_LIMIT_SUN },
    transferParams(),
    from,
  );
  if (!built.result?.result || !built.transaction) throw new Error("the wallet's node did not build the transfer");
  const extended = await tronWeb.transactionBuilder.extendExpiration(built.transaction, EXTEND_SECONDS, { txLocal: true });
  showStatus(say("sign-page-signing"));
  let signed: SignedTx;
  try {
    signed = await tronWeb.trx.sign(extended);
  } catch (error) {
    const message = String((error as { message?: unknown } | undefined)?.message ?? error);
    if (/declin|reject|cancel/i.test(message)) {
      showStatus(say("sign-page-declined"), "warn");
      return false;
    }
    throw error;
  }
  showStatus(say("sign-page-sending"));
  const response = await fetch(window.location.pathname, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ signedTx: signed }),
    credentials: "omit",
  });
  const answer = (await response.json()) as { status?: string; message?: string };
  const tone = answer.status === "sent" || answer.status === "already_sent" ? "ok" : "error";
  showStatus(answer.message ?? say("sign-page-failed", { reason: String(response.status) }), tone);
  return true;
}

/** What the page is at, for people (the button) and for scripts that drive it (`body[data-state]`). */
function setState(state: "ready" | "blocked" | "no-wallet" | "retry" | "declined" | "done" | "failed"): void {
  document.body.dataset["state"] = state;
  const button = $("sign") as HTMLButtonElement;
  button.hidden = state !== "ready" && state !== "retry" && state !== "declined";
  button.textContent = say(state === "retry" ? "sign-page-connect" : "sign-page-sign");
}

const reasonOf = (error: unknown): string => String((error as { message?: unknown } | undefined)?.message ?? error);

async function main(): Promise<void> {
  const button = $("sign") as HTMLButtonElement;
  let wallet: { tronWeb: TronWebLike; from: string } | undefined;
  /** Connects (again, after a refusal) and checks: true when signing may be offered. */
  const prepare = async (): Promise<boolean> => {
    wallet ??= await connect();
    if (!wallet) {
      setState(findWallet().tronWeb ? "retry" : "no-wallet");
      return false;
    }
    const ready = await check(wallet.tronWeb, wallet.from);
    setState(ready ? "ready" : "blocked");
    return ready;
  };
  button.addEventListener("click", () => {
    button.disabled = true;
    void (async () => {
      try {
        const wasReady = document.body.dataset["state"] === "ready" || document.body.dataset["state"] === "declined";
        if (!(await prepare()) || !wasReady) return;
        if (wallet) setState((await signAndSend(wallet.tronWeb, wallet.from)) ? "done" : "declined");
      } catch (error) {
        showStatus(say("sign-page-failed", { reason: reasonOf(error) }), "error");
        setState("failed");
      } finally {
        button.disabled = false;
      }
    })();
  });
  // Wallets inject on load or a moment after it (TronLink announces it with an event): wait that moment.
  for (let tries = 0; tries < 6 && !findWallet().tronWeb; tries += 1) await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    if (await prepare()) showStatus("");
  } catch (error) {
    showStatus(say("sign-page-failed", { reason: reasonOf(error) }), "error");
    setState("failed");
  }
}

void main();
export {};
