/**
 * A fake TRON full node on 127.0.0.1: the java-tron HTTP API calls that tronweb 6.5.1 makes for a
 * USDT signing page (blocks, accounts, resources, TRC20 calls, sign weight, broadcast), answered in
 * java-tron's shapes so tronweb's own checks pass. One USDT contract exists; balances are set by the
 * test. Every request is recorded.
 *
 *   const node = await startFakeTronNode({ network: "mainnet", usdtContract: USDT_MAINNET });
 *   node.setUsdtBalance(TEST_KEYS.alice.address, 25_000_000n);
 *   const tronWeb = new TronWeb({ fullHost: node.url, privateKey });
 *
 * java-tron prints protobuf JSON: fields holding a default value (0, "", false) are left out, bytes
 * are hex unless the request said `visible: true` (then addresses are base58 and texts plain).
 * tronweb never sends `visible`, so it gets hex, and it decodes `result.message` as hex.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { TronWeb, utils } from "tronweb";
import type { ContractJson, SignedTx } from "./tron-sign.js";

export type TronNetwork = "mainnet" | "nile" | "shasta";

/**
 * blockID of block 0, which wallets and pages compare to tell the networks apart. The same values
 * appear in TRON's developer docs as the JSON-RPC chain ids, which are their last 4 bytes
 * (developers.tron.network/reference-link/eth_chainid: mainnet 0x2b6653dc, Shasta 0x94a9059e,
 * Nile 0xcd8690dc), and in the network tables of wallet code (@opentron/tron-networks, Remix TRON).
 */
export const GENESIS_BLOCK_IDS: Readonly<Record<TronNetwork, string>> = {
  mainnet: "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc",
  nile: "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc",
  shasta: "0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e",
};

export interface FakeTronNodeOptions {
  network: TronNetwork;
  /** The one TRC20 contract this chain has (base58). */
  usdtContract: string;
  /** The chain's clock: head block time, expiration checks. */
  now?: () => number;
}

export interface NodeCall {
  /** URL path, e.g. `/wallet/getnowblock`. */
  path: string;
  /** The JSON body, merged over the query string. */
  body: Record<string, unknown>;
}

export type FakeTronNode = Awaited<ReturnType<typeof startFakeTronNode>>;

const BLOCK_INTERVAL_MS = 3_000;
/** Head block numbers count from here, so they look like mainnet's (about June 2018). */
const CHAIN_START_MS = Date.UTC(2018, 5, 25);
const FREE_NET_LIMIT = 600;
/** java-tron's default: block time + 60 s. */
const DEFAULT_EXPIRATION_MS = 60_000;
/** java-tron refuses a transaction that expires further ahead than this. */
const MAX_EXPIRATION_AHEAD_MS = 24 * 60 * 60 * 1000;
const TRIGGER_TYPE_URL = "type.googleapis.com/protocol.TriggerSmartContract";

/** USDT transfer energy: a first deposit to an address writes a new storage slot, about twice the cost. */
export const USDT_TRANSFER_ENERGY = { toHolder: 64_285, toNewHolder: 130_285 } as const;
const BALANCE_OF_ENERGY = 935;
const REVERT_ENERGY = 200;

const SELECTOR = {
  balanceOf: "70a08231",
  transfer: "a9059cbb",
  decimals: "313ce567",
} as const;

type Json = Record<string, unknown>;

class HttpAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(`HTTP ${status}`);
  }
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** `41…` lower-case hex for a base58 or hex address, or undefined when it is neither. */
function hexAddress(value: unknown): string | undefined {
  if (typeof value !== "string" || !TronWeb.isAddress(value)) return undefined;
  return TronWeb.address.toHex(value).toLowerCase();
}

function shownAddress(hex: string, visible: boolean): string {
  return visible ? TronWeb.address.fromHex(hex) : hex;
}

/** Texts in answers (`message`) are bytes in the protobuf: hex unless `visible`. */
function shownText(text: string, visible: boolean): string {
  return visible ? text : Buffer.from(text, "utf8").toString("hex");
}

function intField(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function uint256Word(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

/** The address in an ABI word (the last 20 bytes), as `41…` hex. */
function wordAddress(word: string): string {
  return `41${word.slice(24, 64)}`.toLowerCase();
}

/** raw_data_hex and txID as java-tron computes them: from the JSON's raw_data. */
function hashed(tx: SignedTx): SignedTx {
  const pb = utils.transaction.txJsonToPb(tx);
  return {
    ...tx,
    raw_data_hex: utils.transaction.txPbToRawDataHex(pb).toLowerCase(),
    txID: utils.transaction.txPbToTxID(pb).replace(/^0x/, ""),
  };
}

async function readJson(req: IncomingMessage, url: URL): Promise<Json> {
  const body: Json = Object.fromEntries(url.searchParams.entries());
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpAnswer(400, { Error: "request body is not JSON" });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new HttpAnswer(400, { Error: "request body is not a JSON object" });
  return { ...body, ...(parsed as Json) };
}

function send(res: ServerResponse, status: number, body?: Json): void {
  // A page-side tronWeb could call the node directly, as a page without a wallet would.
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "*");
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function startFakeTronNode(options: FakeTronNodeOptions) {
  const now = options.now ?? Date.now;
  const usdtHex = hexAddress(options.usdtContract);
  if (!usdtHex) throw new Error(`fake TRON node: usdtContract ${options.usdtContract} is not an address`);
  const genesisId = GENESIS_BLOCK_IDS[options.network];

  const calls: NodeCall[] = [];
  const broadcasts: SignedTx[] = [];
  const usdtBalances = new Map<string, bigint>();
  const holders = new Map<string, boolean>();
  const freeBandwidth = new Map<string, number>();
  const trxBalances = new Map<string, number>();

  function keyOf(address: string): string {
    const hex = hexAddress(address);
    if (!hex) throw new Error(`fake TRON node: ${address} is not an address`);
    return hex;
  }

  /** Accounts that exist on this chain: the ones a test gave anything. Others answer `{}`, as unactivated ones do. */
  function accountExists(hex: string): boolean {
    return usdtBalances.has(hex) || holders.has(hex) || freeBandwidth.has(hex) || trxBalances.has(hex);
  }

  function headNumber(): number {
    return Math.max(1, Math.floor((now() - CHAIN_START_MS) / BLOCK_INTERVAL_MS));
  }

  function blockId(num: number): string {
    if (num === 0) return genesisId;
    return num.toString(16).padStart(16, "0") + sha256Hex(`${options.network} block ${num}`).slice(16);
  }

  /** Block `num`; the head block is made at the moment it is asked for, so its time is now. */
  function block(num: number): Json {
    const head = headNumber();
    const witness = `41${sha256Hex(`${options.network} witness ${num % 27}`).slice(0, 40)}`;
    if (num === 0) {
      // Block 0 has number and timestamp 0, which java-tron leaves out.
      return { blockID: genesisId, block_header: { raw_data: { txTrieRoot: sha256Hex(`${options.network} genesis`), witness_address: witness } } };
    }
    return {
      blockID: blockId(num),
      block_header: {
        raw_data: {
          number: num,
          txTrieRoot: sha256Hex(`${options.network} txs ${num}`),
          witness_address: witness,
          parentHash: blockId(num - 1),
          version: 32,
          timestamp: now() - (head - num) * BLOCK_INTERVAL_MS,
        },
        witness_signature: sha256Hex(`sig r ${num}`) + sha256Hex(`sig s ${num}`) + "00",
      },
    };
  }

  function headBlock(): { number: number; id: string; timestamp: number } {
    const number = headNumber();
    return { number, id: blockId(number), timestamp: now() };
  }

  function blockByNum(body: Json): Json {
    const num = intField(body["num"]);
    if (num === undefined) throw new HttpAnswer(200, { Error: "num is not a block number" });
    return num > headNumber() ? {} : block(num);
  }

  /** wallet/getblock: `id_or_num` picks a block, none means the head. */
  function getBlock(body: Json): Json {
    const which = body["id_or_num"];
    if (which === undefined || which === "") return block(headNumber());
    const num = intField(which);
    if (num !== undefined) return num > headNumber() ? {} : block(num);
    const id = typeof which === "string" ? which.toLowerCase() : "";
    const byId = Number.parseInt(id.slice(0, 16), 16);
    return id.length === 64 && byId <= headNumber() && blockId(byId) === id ? block(byId) : {};
  }

  function account(body: Json): Json {
    const visible = body["visible"] === true;
    const hex = hexAddress(body["address"]);
    if (!hex || !accountExists(hex)) return {};
    const balance = trxBalances.get(hex) ?? 0;
    return {
      address: shownAddress(hex, visible),
      ...(balance > 0 ? { balance } : {}),
      create_time: CHAIN_START_MS + 86_400_000,
      account_resource: {},
    };
  }

  function accountResource(body: Json): Json {
    const hex = hexAddress(body["address"]);
    if (!hex || !accountExists(hex)) return {};
    const freeNetUsed = FREE_NET_LIMIT - Math.min(FREE_NET_LIMIT, Math.max(0, freeBandwidth.get(hex) ?? FREE_NET_LIMIT));
    // Nothing staked: NetLimit, NetUsed, EnergyLimit and EnergyUsed are 0 and so absent. Totals are mainnet-sized.
    return {
      ...(freeNetUsed > 0 ? { freeNetUsed } : {}),
      freeNetLimit: FREE_NET_LIMIT,
      TotalNetLimit: 43_200_000_000,
      TotalNetWeight: 26_500_000_000,
      TotalEnergyLimit: 180_000_000_000,
      TotalEnergyWeight: 19_000_000_000,
    };
  }

  function contractError(message: string, visible: boolean): Json {
    return { result: { code: "CONTRACT_VALIDATE_ERROR", message: shownText(message, visible) } };
  }

  /** The unsigned TriggerSmartContract transaction java-tron builds for a trigger request. */
  function triggerTransaction(body: Json, owner: string, contract: string, constant: boolean): SignedTx {
    const visible = body["visible"] === true;
    const selector = body["function_selector"];
    const parameter = typeof body["parameter"] === "string" ? body["parameter"] : "";
    const data =
      typeof selector === "string" && selector !== "" ? TronWeb.sha3(selector).slice(2, 10) + parameter : typeof body["data"] === "string" ? body["data"] : "";
    const value: Json = { data, owner_address: shownAddress(owner, visible), contract_address: shownAddress(contract, visible) };
    for (const field of ["call_value", "call_token_value", "token_id"]) {
      const n = intField(body[field]);
      if (n) value[field] = n;
    }
    const entry: ContractJson = { parameter: { value, type_url: TRIGGER_TYPE_URL }, type: "TriggerSmartContract" };
    const permissionId = intField(body["Permission_id"]);
    if (permissionId) entry.Permission_id = permissionId;
    const head = headBlock();
    const feeLimit = intField(body["fee_limit"]);
    return hashed({
      visible,
      txID: "",
      raw_data: {
        contract: [entry],
        ref_block_bytes: (head.number & 0xffff).toString(16).padStart(4, "0"),
        ref_block_hash: head.id.slice(16, 32),
        expiration: head.timestamp + DEFAULT_EXPIRATION_MS,
        ...(!constant && feeLimit ? { fee_limit: feeLimit } : {}),
        // The head block's own moment: one reading of the clock, so a pause between two readings (a loaded
        // machine) never makes the expiration less than 60 s after the timestamp.
        timestamp: head.timestamp,
      },
      raw_data_hex: "",
    });
  }

  function trigger(body: Json, constant: boolean): Json {
    const visible = body["visible"] === true;
    const owner = hexAddress(body["owner_address"]);
    const contract = hexAddress(body["contract_address"]);
    if (!owner || !contract) return { Error: "class java.lang.IllegalArgumentException : invalid owner_address or contract_address" };
    if (contract !== usdtHex) return contractError("No contract or not a valid smart contract", visible);
    const transaction = triggerTransaction(body, owner, contract, constant);
    if (!constant) return { result: { result: true }, transaction };
    return constantCall(transaction, visible);
  }

  /** Runs a read-only call against the USDT model: balanceOf, transfer (energy estimate), decimals. */
  function constantCall(transaction: SignedTx, visible: boolean): Json {
    const data = String(transaction.raw_data.contract[0]!.parameter.value["data"]).toLowerCase();
    const words = data.slice(8);
    const ok = (energy_used: number, word: string): Json => ({
      result: { result: true },
      energy_used,
      constant_result: [word],
      transaction: { ret: [{}], ...transaction },
    });
    if (data.startsWith(SELECTOR.balanceOf) && words.length === 64) {
      return ok(BALANCE_OF_ENERGY, uint256Word(usdtBalances.get(wordAddress(words)) ?? 0n));
    }
    if (data.startsWith(SELECTOR.transfer) && words.length === 128) {
      const to = wordAddress(words.slice(0, 64));
      const holds = holders.get(to) ?? (usdtBalances.get(to) ?? 0n) > 0n;
      return ok(holds ? USDT_TRANSFER_ENERGY.toHolder : USDT_TRANSFER_ENERGY.toNewHolder, uint256Word(1n));
    }
    if (data.startsWith(SELECTOR.decimals) && words.length === 0) return ok(BALANCE_OF_ENERGY, uint256Word(6n));
    // java-tron answers a reverted constant call with result true; the failure is only in message and ret.
    return {
      result: { result: true, message: shownText("REVERT opcode executed", visible) },
      energy_used: REVERT_ENERGY,
      constant_result: [""],
      transaction: { ret: [{ ret: "FAILED" }], ...transaction },
    };
  }

  function asTransaction(body: Json): SignedTx {
    const raw = body["raw_data"] as SignedTx["raw_data"] | undefined;
    if (typeof raw !== "object" || !Array.isArray(raw.contract) || raw.contract.length === 0) {
      throw new HttpAnswer(200, { Error: "class java.lang.IllegalArgumentException : no raw_data.contract in the transaction" });
    }
    try {
      return hashed(body as unknown as SignedTx);
    } catch (error) {
      throw new HttpAnswer(200, { Error: `class org.tron.core.exception.BadItemException : ${(error as Error).message}` });
    }
  }

  function ownerOf(tx: SignedTx): string {
    return hexAddress(tx.raw_data.contract[0]!.parameter.value["owner_address"]) ?? "";
  }

  function signers(tx: SignedTx): string[] {
    return (tx.signature ?? []).map((sig) => {
      try {
        return utils.crypto.ecRecover(tx.txID, sig).toLowerCase();
      } catch {
        return "";
      }
    });
  }

  /** What extendExpiration posts without `txLocal`: tronweb keeps only the rehashed transaction. */
  function signWeight(body: Json): Json {
    const tx = asTransaction(body);
    const owner = ownerOf(tx);
    const visible = tx.visible;
    const approved = signers(tx).filter((a) => a === owner);
    return {
      permission: { permission_name: "owner", threshold: 1, keys: [{ address: shownAddress(owner, visible), weight: 1 }] },
      ...(approved.length > 0 ? { approved_list: [shownAddress(owner, visible)], current_weight: 1 } : {}),
      result: { code: approved.length > 0 ? "ENOUGH_PERMISSION" : "NOT_ENOUGH_PERMISSION" },
      transaction: { result: { result: true }, txid: tx.txID, transaction: tx },
    };
  }

  /**
   * java-tron rebuilds the transaction from its JSON (raw_data_hex and txID as sent are ignored) and
   * checks the signature against that, so a JSON edited after signing fails as SIGERROR. TaPoS is not
   * checked: offline-built test transactions carry a made-up reference block.
   */
  function broadcast(body: Json): Json {
    const tx = asTransaction(body);
    const visible = tx.visible;
    const refuse = (code: string, message: string): Json => ({ code, txid: tx.txID, message: shownText(message, visible) });
    if (!tx.signature?.length) return refuse("SIGERROR", "Validate signature error: miss sig or contract");
    const owner = ownerOf(tx);
    if (!signers(tx).includes(owner)) return refuse("SIGERROR", `Validate signature error: signature is not signed by ${TronWeb.address.fromHex(owner)}`);
    const head = headBlock();
    if (tx.raw_data.expiration <= head.timestamp) return refuse("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
    if (tx.raw_data.expiration > head.timestamp + MAX_EXPIRATION_AHEAD_MS) return refuse("TRANSACTION_EXPIRATION_ERROR", "expiration time is too long");
    if (broadcasts.some((b) => b.txID === tx.txID)) return refuse("DUP_TRANSACTION_ERROR", "Dup transaction.");
    broadcasts.push(structuredClone(tx));
    return { result: true, txid: tx.txID };
  }

  const routes: Record<string, (body: Json) => Json> = {
    "/wallet/getnowblock": () => block(headNumber()),
    "/walletsolidity/getnowblock": () => block(headNumber()),
    "/wallet/getblock": getBlock,
    "/wallet/getblockbynum": blockByNum,
    "/walletsolidity/getblockbynum": blockByNum,
    // tronweb's trx.getAccount (and so getBalance) reads the solidity path.
    "/wallet/getaccount": account,
    "/walletsolidity/getaccount": account,
    "/wallet/getaccountresource": accountResource,
    "/wallet/triggersmartcontract": (body) => trigger(body, false),
    "/wallet/triggerconstantcontract": (body) => trigger(body, true),
    "/wallet/getsignweight": signWeight,
    "/wallet/broadcasttransaction": broadcast,
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "OPTIONS") {
      send(res, 204);
      return;
    }
    readJson(req, url)
      .then((body) => {
        calls.push({ path: url.pathname, body });
        const route = routes[url.pathname];
        if (!route) throw new HttpAnswer(404, { Error: `fake TRON node has no ${url.pathname}` });
        send(res, 200, route(body));
      })
      .catch((error: unknown) => {
        if (error instanceof HttpAnswer) send(res, error.status, error.body);
        else send(res, 500, { Error: (error as Error).message });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    network: options.network,
    calls,
    broadcasts,
    setUsdtBalance(address: string, atomic: bigint): void {
      usdtBalances.set(keyOf(address), atomic);
    },
    /** Overrides "holds USDT" (otherwise: balance > 0) for the transfer energy estimate. */
    setHolder(address: string, holds: boolean): void {
      holders.set(keyOf(address), holds);
    },
    /** Free bandwidth left today (of 600); freeNetUsed is the rest. */
    setBandwidth(address: string, free: number): void {
      freeBandwidth.set(keyOf(address), free);
    },
    setTrxBalance(address: string, sun: number): void {
      trxBalances.set(keyOf(address), sun);
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
