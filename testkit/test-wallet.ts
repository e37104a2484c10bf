/**
 * A TronLink-like wallet injected into a Playwright page. As in the extension, the page sees
 * `window.tronLink` and `window.tronWeb`, but node calls and signing happen outside the page: here in
 * Node.js, in a real TronWeb holding the key, reached through `page.exposeFunction`. So a page whose
 * Content-Security-Policy allows only its own origin still works, as it does with TronLink.
 *
 *   const wallet = await installTestWallet(page, { privateKey: TEST_KEYS.alice.privateKey, nodeUrl: node.url });
 *   await page.goto(signUrl);
 *   await waitUntil(() => wallet.signed[0]);
 *
 * A behaviour other than "honest" makes the wallet sign something other than what the page asked
 * for, as a compromised wallet or page script would: the bot must refuse what it gets back.
 */
import type { Page } from "playwright-core";
import { TronWeb, utils, type Types } from "tronweb";
import { finalizeAndSign, TEST_KEYS, type SignedTx } from "./tron-sign.js";

export type WalletBehaviour = "honest" | "other-amount" | "other-recipient" | "approve" | "rejects-signing";

export interface TestWalletOptions {
  privateKey: string;
  /** The node the wallet's TronWeb talks to (a fake TRON node). */
  nodeUrl: string;
  behaviour?: WalletBehaviour;
  /** Whether the user approves `tron_requestAccounts` (default true). */
  approveAccounts?: boolean;
  /** Runs after each signature, before the page gets it; e.g. a wallet that also broadcasts. */
  onSigned?: (signed: SignedTx) => Promise<void> | void;
}

export interface TestWallet {
  /** The wallet's account (base58). */
  address: string;
  /** Every transaction it signed, in order. */
  signed: SignedTx[];
  /** What the page called, in order: `tronLink.request` methods by name (`tron_requestAccounts`), others as `trx.sign`. */
  requests: string[];
}

/** TronLink's words when the user presses Reject in the signing window. */
export const SIGNING_DECLINED = "Confirmation declined by user";

const BINDING = "__testWalletCall";

/**
 * Runs in the page before its scripts (plain JS, no imports). Like the extension, tronWeb has no
 * account (`defaultAddress` false) until `tron_requestAccounts` is approved. Rejections carry only
 * the message, as a fresh Error: nothing of the Node side leaks into the page.
 */
const PAGE_SCRIPT = `(function (config) {
  var call = function (path, args) {
    return window[config.binding](path, args).catch(function (error) {
      throw new Error(error && error.message ? error.message : String(error));
    });
  };
  var tronWeb = {
    ready: false,
    defaultAddress: false,
    fullNode: { host: config.nodeUrl },
    solidityNode: { host: config.nodeUrl },
    trx: {},
    transactionBuilder: {},
  };
  config.methods.forEach(function (path) {
    var group = path.split(".")[0];
    var name = path.split(".")[1];
    tronWeb[group][name] = function () {
      return call([group, name], Array.prototype.slice.call(arguments));
    };
  });
  var tronLink = {
    ready: false,
    tronWeb: tronWeb,
    request: function (request) {
      return call(["tronLink", "request"], [request && request.method]).then(function (answer) {
        if (answer.code === 200) {
          tronWeb.defaultAddress = { base58: config.base58, hex: config.hex };
          tronWeb.ready = true;
          tronLink.ready = true;
        }
        return answer;
      });
    },
  };
  window.tronLink = tronLink;
  window.tronWeb = tronWeb;
})`;

const ACCOUNTS_APPROVED = { code: 200, message: "The site is already in the whitelist" } as const;
const ACCOUNTS_REJECTED = { code: 4001, message: "User rejected the request." } as const;

/** A JSON copy: what reaches the page is data, never tronweb's objects. */
function jsonCopy(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function callData(signature: string, to: string, amount: bigint): string {
  return TronWeb.sha3(signature).slice(2, 10) + utils.abi.encodeParams(["address", "uint256"], [to, amount]).slice(2);
}

/** The recipient (`41…`) and amount of a `transfer(address,uint256)` transaction. */
function transferCall(tx: SignedTx): { to: string; amount: bigint } {
  const contract = tx.raw_data.contract[0];
  const data = contract?.parameter.value["data"];
  if (contract?.type !== "TriggerSmartContract" || typeof data !== "string" || !/^a9059cbb[0-9a-f]{128}$/i.test(data)) {
    throw new Error("test wallet: this behaviour needs a transfer(address,uint256) transaction to alter");
  }
  const decoded = utils.abi.decodeParams(["to", "amount"], ["address", "uint256"], data, true) as { to: string; amount: bigint };
  return { to: decoded.to, amount: decoded.amount };
}

/** The same transaction (block reference, expiration, fee limit) with other call data, signed. */
function signAltered(tx: SignedTx, behaviour: Exclude<WalletBehaviour, "honest" | "rejects-signing">, privateKey: string): SignedTx {
  const { to, amount } = transferCall(tx);
  const erinHex = TronWeb.address.toHex(TEST_KEYS.erin.address).toLowerCase();
  const data = {
    "other-amount": () => callData("transfer(address,uint256)", to, amount + 1n),
    "other-recipient": () => callData("transfer(address,uint256)", to === erinHex ? TEST_KEYS.dave.address : TEST_KEYS.erin.address, amount),
    // The same arguments under another function: only the selector tells it from the transfer asked for.
    approve: () => callData("approve(address,uint256)", to, amount),
  }[behaviour]();
  const altered = structuredClone(tx);
  const contract = altered.raw_data.contract[0]!;
  contract.parameter.value = { ...contract.parameter.value, data };
  return finalizeAndSign(altered, privateKey);
}

export async function installTestWallet(page: Page, options: TestWalletOptions): Promise<TestWallet> {
  const behaviour = options.behaviour ?? "honest";
  const tronWeb = new TronWeb({ fullHost: options.nodeUrl, privateKey: options.privateKey });
  const { base58, hex } = tronWeb.defaultAddress;
  if (typeof base58 !== "string" || typeof hex !== "string") throw new Error("test wallet: the private key gives no address");
  const wallet: TestWallet = { address: base58, signed: [], requests: [] };

  async function sign(transaction: unknown): Promise<SignedTx> {
    if (behaviour === "rejects-signing") throw new Error(SIGNING_DECLINED);
    const signed =
      behaviour === "honest"
        ? (jsonCopy(await tronWeb.trx.sign(transaction as Types.Transaction)) as SignedTx)
        : signAltered(jsonCopy(transaction) as SignedTx, behaviour, options.privateKey);
    wallet.signed.push(signed);
    await options.onSigned?.(structuredClone(signed));
    return signed;
  }

  const trx = tronWeb.trx;
  const builder = tronWeb.transactionBuilder;
  // The tronWeb methods the page gets; each runs here, against the wallet's node.
  const methods: Record<string, (args: unknown[]) => Promise<unknown>> = {
    "trx.getBlockByNumber": (args) => trx.getBlockByNumber(...(args as Parameters<typeof trx.getBlockByNumber>)),
    "trx.getCurrentBlock": () => trx.getCurrentBlock(),
    "trx.getAccount": (args) => trx.getAccount(...(args as Parameters<typeof trx.getAccount>)),
    "trx.getAccountResources": (args) => trx.getAccountResources(...(args as Parameters<typeof trx.getAccountResources>)),
    "trx.getBalance": (args) => trx.getBalance(...(args as Parameters<typeof trx.getBalance>)),
    // Only the transaction: a page cannot hand the wallet a key or signing flags.
    "trx.sign": (args) => sign(args[0]),
    "transactionBuilder.triggerSmartContract": (args) => builder.triggerSmartContract(...(args as Parameters<typeof builder.triggerSmartContract>)),
    "transactionBuilder.triggerConstantContract": (args) => builder.triggerConstantContract(...(args as Parameters<typeof builder.triggerConstantContract>)),
    "transactionBuilder.extendExpiration": (args) => builder.extendExpiration(...(args as Parameters<typeof builder.extendExpiration>)),
  };

  function requestAccounts(method: unknown): { code: number; message: string } {
    if (method !== "tron_requestAccounts") throw new Error(`test wallet: unsupported request method ${String(method)}`);
    return options.approveAccounts === false ? ACCOUNTS_REJECTED : ACCOUNTS_APPROVED;
  }

  await page.exposeFunction(BINDING, async (path: unknown, args: unknown): Promise<unknown> => {
    const [group, name] = Array.isArray(path) ? (path as unknown[]) : [];
    const callArgs = Array.isArray(args) ? (args as unknown[]) : [];
    if (group === "tronLink" && name === "request") {
      wallet.requests.push(String(callArgs[0]));
      return requestAccounts(callArgs[0]);
    }
    const key = `${String(group)}.${String(name)}`;
    const method = Object.hasOwn(methods, key) ? methods[key] : undefined;
    if (!method) throw new Error(`test wallet: ${key} is not a wallet method`);
    wallet.requests.push(key);
    return jsonCopy(await method(callArgs));
  });
  const config = { binding: BINDING, nodeUrl: options.nodeUrl, base58, hex, methods: Object.keys(methods) };
  await page.addInitScript({ content: `${PAGE_SCRIPT}(${JSON.stringify(config)});` });
  return wallet;
}
