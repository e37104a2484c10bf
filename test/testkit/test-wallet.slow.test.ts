/**
 * Proves the signing-page doubles: the fake TRON node answers what tronweb 6.5.1 asks and checks,
 * and the test wallet, injected into a real Chromium, lets a page under a strict CSP build, extend
 * and sign a USDT transfer with every node call made outside the page.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { TronWeb, Trx, utils, type Types } from "tronweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../testkit/browser.js";
import { GENESIS_BLOCK_IDS, startFakeTronNode, USDT_TRANSFER_ENERGY, type FakeTronNode, type TronNetwork } from "../../testkit/fake-tron-node.js";
import { installTestWallet, SIGNING_DECLINED, type TestWallet, type TestWalletOptions } from "../../testkit/test-wallet.js";
import { signTrc20Transfer, TEST_KEYS, USDT_MAINNET, type SignedTx } from "../../testkit/tron-sign.js";
import { waitUntil } from "../support/wait.js";

const { alice, bob, erin } = TEST_KEYS;
const AMOUNT = 1_500_000n;
const FEE_LIMIT = 100_000_000;

interface DecodedCall {
  selector: string;
  owner: string;
  contract: string;
  to: string;
  amount: bigint;
  expiration: number;
}

/** Reads the signed bytes (raw_data_hex), not the JSON beside them. */
function decodeCall(tx: SignedTx): DecodedCall {
  const raw = utils.deserializeTx.deserializeTransaction("TriggerSmartContract", tx.raw_data_hex) as {
    contract: { parameter: { value: { owner_address: string; contract_address: string; data: string } } }[];
    expiration: number;
  };
  const value = raw.contract[0]!.parameter.value;
  const data = value.data.toLowerCase();
  const args = utils.abi.decodeParams(["to", "amount"], ["address", "uint256"], data, true) as { to: string; amount: bigint };
  return {
    selector: data.slice(0, 8),
    owner: TronWeb.address.fromHex(value.owner_address.toLowerCase()),
    contract: TronWeb.address.fromHex(value.contract_address.toLowerCase()),
    to: TronWeb.address.fromHex(args.to),
    amount: args.amount,
    expiration: raw.expiration,
  };
}

async function withNode<T>(run: (node: FakeTronNode) => Promise<T>, network: TronNetwork = "mainnet"): Promise<T> {
  const node = await startFakeTronNode({ network, usdtContract: USDT_MAINNET });
  try {
    return await run(node);
  } finally {
    await node.close();
  }
}

function paths(node: FakeTronNode): string[] {
  return node.calls.map((c) => c.path);
}

describe("fake TRON node, through tronweb", () => {
  it.each(["mainnet", "nile", "shasta"] as const)("answers block 0 of %s with its genesis id", async (network) => {
    await withNode(async (node) => {
      const tronWeb = new TronWeb({ fullHost: node.url });
      const genesis = await tronWeb.trx.getBlockByNumber(0);
      expect(genesis.blockID).toBe(GENESIS_BLOCK_IDS[network]);
      const head = await tronWeb.trx.getCurrentBlock();
      expect(head.block_header.raw_data.number).toBeGreaterThan(0);
      expect(paths(node)).toEqual(["/wallet/getblockbynum", "/wallet/getnowblock"]);
    }, network);
  });

  it("builds a transfer that passes tronweb's own check, with block time + 60 s, and extends it both ways", async () => {
    await withNode(async (node) => {
      const tronWeb = new TronWeb({ fullHost: node.url, privateKey: alice.privateKey });
      const params = [
        { type: "address", value: bob.address },
        { type: "uint256", value: AMOUNT.toString() },
      ];
      const before = Date.now();
      // tronweb rebuilds the transaction from its own arguments and refuses any difference ("Invalid transaction").
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        USDT_MAINNET,
        "transfer(address,uint256)",
        { feeLimit: FEE_LIMIT },
        params,
        alice.address,
      );
      expect(transaction.raw_data.fee_limit).toBe(FEE_LIMIT);
      expect(transaction.raw_data.expiration - transaction.raw_data.timestamp).toBe(60_000);
      expect(transaction.raw_data.timestamp).toBeGreaterThanOrEqual(before);

      const local = await tronWeb.transactionBuilder.triggerSmartContract(
        USDT_MAINNET,
        "transfer(address,uint256)",
        { feeLimit: FEE_LIMIT, txLocal: true },
        params,
        alice.address,
      );
      expect(local.transaction.raw_data.contract).toEqual(transaction.raw_data.contract);

      const viaNode = await tronWeb.transactionBuilder.extendExpiration(transaction, 600);
      const offline = await tronWeb.transactionBuilder.extendExpiration(transaction, 600, { txLocal: true });
      for (const extended of [viaNode, offline]) {
        expect(extended.raw_data.expiration).toBe(transaction.raw_data.expiration + 600_000);
        expect(utils.transaction.txCheck(extended)).toBe(true);
      }
      expect(viaNode.txID).toBe(offline.txID);
      // Without txLocal, triggerSmartContract posts the trigger and extendExpiration posts getsignweight; with it, only the head block is read.
      expect(paths(node)).toEqual(["/wallet/triggersmartcontract", "/wallet/getblock", "/wallet/getsignweight"]);
    });
  });

  it("models USDT reads: balances, transfer energy by recipient, and a revert for anything else", async () => {
    await withNode(async (node) => {
      node.setUsdtBalance(alice.address, 25_000_000n);
      node.setUsdtBalance(bob.address, 1n);
      node.setHolder(erin.address, false);
      node.setTrxBalance(alice.address, 3_000_000);
      node.setBandwidth(alice.address, 250);
      const tronWeb = new TronWeb({ fullHost: node.url, privateKey: alice.privateKey });
      const builder = tronWeb.transactionBuilder;
      const balance = await builder.triggerConstantContract(USDT_MAINNET, "balanceOf(address)", {}, [{ type: "address", value: alice.address }]);
      expect(BigInt(`0x${String(balance.constant_result[0])}`)).toBe(25_000_000n);
      const energyTo = async (to: string) =>
        (
          await builder.triggerConstantContract(USDT_MAINNET, "transfer(address,uint256)", {}, [
            { type: "address", value: to },
            { type: "uint256", value: "1" },
          ])
        ).energy_used;
      expect(await energyTo(bob.address)).toBe(USDT_TRANSFER_ENERGY.toHolder);
      expect(await energyTo(erin.address)).toBe(USDT_TRANSFER_ENERGY.toNewHolder);
      node.setHolder(erin.address, true);
      expect(await energyTo(erin.address)).toBe(USDT_TRANSFER_ENERGY.toHolder);
      await expect(builder.triggerConstantContract(USDT_MAINNET, "name()", {}, [])).rejects.toThrow("REVERT opcode executed");

      expect(await tronWeb.trx.getBalance(alice.address)).toBe(3_000_000);
      expect(await tronWeb.trx.getAccount(TEST_KEYS.carol.address)).toEqual({});
      const resources = await tronWeb.trx.getAccountResources(alice.address);
      expect(resources).toMatchObject({ freeNetLimit: 600, freeNetUsed: 350 });
      expect(resources.NetLimit).toBeUndefined();
      expect(paths(node)).toContain("/walletsolidity/getaccount");
    });
  });

  it("broadcasts a signed transaction once and refuses an unsigned, edited or expired one", async () => {
    await withNode(async (node) => {
      const signed = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: AMOUNT, expirationMs: Date.now() + 600_000 });
      const post = async (body: unknown) =>
        (await (await fetch(`${node.url}/wallet/broadcasttransaction`, { method: "POST", body: JSON.stringify(body) })).json()) as Record<string, unknown>;
      const tronWeb = new TronWeb({ fullHost: node.url });
      expect(await tronWeb.trx.sendRawTransaction(signed as unknown as Types.SignedTransaction)).toMatchObject({ result: true, txid: signed.txID });
      expect(await post(signed)).toMatchObject({ code: "DUP_TRANSACTION_ERROR" });
      const { signature: _, ...unsigned } = signed;
      expect(await post(unsigned)).toMatchObject({ code: "SIGERROR" });
      const edited = structuredClone(signed);
      edited.raw_data.fee_limit = 1;
      expect(await post(edited)).toMatchObject({ code: "SIGERROR" });
      const expired = signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: AMOUNT, expirationMs: Date.now() - 1_000 });
      expect(await post(expired)).toMatchObject({ code: "TRANSACTION_EXPIRATION_ERROR" });
      expect(node.broadcasts.map((b) => b.txID)).toEqual([signed.txID]);

      const unknown = await fetch(`${node.url}/wallet/getchainparameters`, { method: "POST" });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("access-control-allow-origin")).toBe("*");
      expect(paths(node).at(-1)).toBe("/wallet/getchainparameters");
    });
  });
});

interface PageReport {
  stage: "signed" | "accounts" | "error";
  /** Set by the inline script the CSP must block. */
  inlineRan: boolean;
  from?: string;
  genesisId?: string;
  trxBalance?: number;
  freeNetLimit?: number;
  usdtBalance?: string;
  energy?: number;
  signed?: SignedTx;
  code?: number;
  message?: string;
  defaultAddress?: unknown;
  isError?: boolean;
}

const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'";

/** The signing flow as the product's page runs it, through the injected wallet only. */
const PAGE_SCRIPT = `(async function () {
  var params = new URLSearchParams(location.search);
  var usdt = params.get("usdt");
  var to = params.get("to");
  var amount = params.get("amount");
  var report = function (body) {
    body.inlineRan = window.__inlineRan === true;
    return fetch(location.pathname + "/report", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  };
  try {
    var tronLink = window.tronLink;
    var accounts = await tronLink.request({ method: "tron_requestAccounts" });
    var tronWeb = tronLink.tronWeb;
    if (accounts.code !== 200) {
      await report({ stage: "accounts", code: accounts.code, message: accounts.message, defaultAddress: tronWeb.defaultAddress });
      return;
    }
    var from = tronWeb.defaultAddress.base58;
    var transfer = [{ type: "address", value: to }, { type: "uint256", value: amount }];
    var genesis = await tronWeb.trx.getBlockByNumber(0);
    var trxBalance = await tronWeb.trx.getBalance(from);
    var resources = await tronWeb.trx.getAccountResources(from);
    var balance = await tronWeb.transactionBuilder.triggerConstantContract(usdt, "balanceOf(address)", {}, [{ type: "address", value: from }], from);
    var estimate = await tronWeb.transactionBuilder.triggerConstantContract(usdt, "transfer(address,uint256)", {}, transfer, from);
    var built = await tronWeb.transactionBuilder.triggerSmartContract(usdt, "transfer(address,uint256)", { feeLimit: ${FEE_LIMIT} }, transfer, from);
    var extended = await tronWeb.transactionBuilder.extendExpiration(built.transaction, 600, { txLocal: true });
    var signed = await tronWeb.trx.sign(extended);
    await report({
      stage: "signed", from: from, genesisId: genesis.blockID, trxBalance: trxBalance, freeNetLimit: resources.freeNetLimit,
      usdtBalance: balance.constant_result[0], energy: estimate.energy_used, signed: signed,
    });
  } catch (error) {
    await report({ stage: "error", isError: error instanceof Error, message: error instanceof Error ? error.message : String(error) });
  }
})();
`;

/** The bot's side of the page: HTML under the CSP, the script as a file, and where the page reports. */
async function startSigningSite() {
  const reports = new Map<string, PageReport>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const page = /^\/sign\/([\w-]+)$/.exec(url.pathname);
    const report = /^\/sign\/([\w-]+)\/report$/.exec(url.pathname);
    if (req.method === "GET" && page) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP });
      res.end(`<!doctype html><title>Sign</title><script>window.__inlineRan = true;</script><script src="/static/sign.js"></script>`);
    } else if (req.method === "GET" && url.pathname === "/static/sign.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(PAGE_SCRIPT);
    } else if (req.method === "POST" && report) {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        reports.set(report[1]!, JSON.parse(Buffer.concat(chunks).toString("utf8")) as PageReport);
        res.writeHead(204).end();
      });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    reports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!chromiumAvailable())("test wallet in Chromium (skipped without /usr/bin/chromium or CHROMIUM_PATH)", () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startSigningSite>>;
  let pageCount = 0;

  beforeAll(async () => {
    [browser, site] = await Promise.all([launchChromium(), startSigningSite()]);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  interface PageRun {
    report: PageReport;
    wallet: TestWallet;
    node: FakeTronNode;
    /** Every URL the page itself requested. */
    requested: string[];
  }

  async function signOnPage(walletOptions: (node: FakeTronNode) => Partial<TestWalletOptions> = () => ({})): Promise<PageRun> {
    const node = await startFakeTronNode({ network: "mainnet", usdtContract: USDT_MAINNET });
    node.setUsdtBalance(alice.address, 25_000_000n);
    node.setTrxBalance(alice.address, 3_000_000);
    node.setUsdtBalance(bob.address, 1n);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      const wallet = await installTestWallet(page, { privateKey: alice.privateKey, nodeUrl: node.url, ...walletOptions(node) });
      const token = `t${++pageCount}`;
      const query = new URLSearchParams({ usdt: USDT_MAINNET, to: bob.address, amount: AMOUNT.toString() });
      await page.goto(`${site.origin}/sign/${token}?${query.toString()}`);
      const report = await waitUntil(() => site.reports.get(token), { what: `the page's report for ${token}` });
      return { report, wallet, node, requested };
    } finally {
      await context.close();
      await node.close();
    }
  }

  function expectOnlyOwnOrigin(run: PageRun): void {
    expect(run.requested.length).toBeGreaterThan(0);
    expect(run.requested.filter((u) => new URL(u).origin !== site.origin)).toEqual([]);
    expect(run.report.inlineRan).toBe(false);
  }

  it("an honest wallet signs the page's transfer, with every node call made outside the page", async () => {
    const run = await signOnPage();
    expect(run.report).toMatchObject({
      stage: "signed",
      from: alice.address,
      genesisId: GENESIS_BLOCK_IDS.mainnet,
      trxBalance: 3_000_000,
      freeNetLimit: 600,
      energy: USDT_TRANSFER_ENERGY.toHolder,
    });
    expect(BigInt(`0x${run.report.usdtBalance ?? ""}`)).toBe(25_000_000n);
    const signed = run.report.signed!;
    expect(signed).toEqual(run.wallet.signed[0]);
    expect(utils.transaction.txCheck(signed)).toBe(true);
    expect(Trx.ecRecover(signed as unknown as Types.SignedTransaction)).toBe(alice.address);
    const call = decodeCall(signed);
    expect(call).toMatchObject({ selector: "a9059cbb", owner: alice.address, contract: USDT_MAINNET, to: bob.address, amount: AMOUNT });
    expect(call.expiration).toBeGreaterThanOrEqual(Date.now() + 9 * 60_000);
    expect(signed.raw_data.fee_limit).toBe(FEE_LIMIT);

    expect(run.wallet.requests).toEqual([
      "tron_requestAccounts",
      "trx.getBlockByNumber",
      "trx.getBalance",
      "trx.getAccountResources",
      "transactionBuilder.triggerConstantContract",
      "transactionBuilder.triggerConstantContract",
      "transactionBuilder.triggerSmartContract",
      "transactionBuilder.extendExpiration",
      "trx.sign",
    ]);
    expect(paths(run.node)).toEqual([
      "/wallet/getblockbynum",
      "/walletsolidity/getaccount",
      "/wallet/getaccountresource",
      "/wallet/triggerconstantcontract",
      "/wallet/triggerconstantcontract",
      "/wallet/triggersmartcontract",
    ]);
    expect(run.node.broadcasts).toEqual([]);
    expectOnlyOwnOrigin(run);
  });

  it.each([
    { behaviour: "other-amount", selector: "a9059cbb", to: bob.address, amount: AMOUNT + 1n },
    { behaviour: "other-recipient", selector: "a9059cbb", to: erin.address, amount: AMOUNT },
    { behaviour: "approve", selector: "095ea7b3", to: bob.address, amount: AMOUNT },
  ] as const)("a wallet that is $behaviour signs, with the key, something other than asked", async ({ behaviour, selector, to, amount }) => {
    const run = await signOnPage(() => ({ behaviour }));
    expect(run.report.stage).toBe("signed");
    const signed = run.report.signed!;
    expect(utils.transaction.txCheck(signed)).toBe(true);
    expect(Trx.ecRecover(signed as unknown as Types.SignedTransaction)).toBe(alice.address);
    expect(decodeCall(signed)).toMatchObject({ selector, owner: alice.address, contract: USDT_MAINNET, to, amount });
    expect(decodeCall(signed).expiration).toBeGreaterThanOrEqual(Date.now() + 9 * 60_000);
    expectOnlyOwnOrigin(run);
  });

  it("a user who declines signing rejects the page's sign call with TronLink's words", async () => {
    const run = await signOnPage(() => ({ behaviour: "rejects-signing" }));
    expect(run.report).toMatchObject({ stage: "error", isError: true, message: SIGNING_DECLINED });
    expect(run.wallet.signed).toEqual([]);
    expect(run.wallet.requests.at(-1)).toBe("trx.sign");
    expectOnlyOwnOrigin(run);
  });

  it("a user who rejects the accounts request leaves tronWeb without an address", async () => {
    const run = await signOnPage(() => ({ approveAccounts: false }));
    expect(run.report).toMatchObject({ stage: "accounts", code: 4001, message: "User rejected the request.", defaultAddress: false });
    expect(run.wallet.requests).toEqual(["tron_requestAccounts"]);
    expect(run.node.calls).toEqual([]);
  });

  it("onSigned runs before the page gets the signature: a wallet that also broadcasts", async () => {
    const run = await signOnPage((node) => ({
      onSigned: async (signed) => {
        const answer = await fetch(`${node.url}/wallet/broadcasttransaction`, { method: "POST", body: JSON.stringify(signed) });
        expect(await answer.json()).toMatchObject({ result: true, txid: signed.txID });
      },
    }));
    expect(run.report.stage).toBe("signed");
    expect(run.node.broadcasts.map((b) => b.txID)).toEqual([run.report.signed!.txID]);
  });
});
