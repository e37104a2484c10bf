/** What a signing page may hand back: exactly the confirmed transfer, nothing near it (docs/send.md, "What the bot checks"). */
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import type { SendIntent } from "../../../src/features/send/send-intent.js";
import { checkSignedTransfer, transferCallData } from "../../../src/features/send/signed-transfer.js";
import { signContract, signTrc20Transfer, signTrxTransfer, TEST_KEYS, USDT_MAINNET, type SignedTx } from "../../../testkit/tron-sign.js";

const NOW = Date.now();
const TO = TEST_KEYS.bob.address;
const intent: SendIntent = {
  intentId: "i1",
  chatId: 1,
  to: TO,
  amountAtomic: "12500000",
  usdtContract: USDT_MAINNET,
  feeSun: "13000000",
  createdAtMs: NOW,
  state: "signing",
  locale: "en",
};
const hex = (address: string) => TronWeb.address.toHex(address).toLowerCase();

function call(data: string, extra: Record<string, unknown> = {}, contract = USDT_MAINNET): SignedTx {
  return signContract({
    privateKey: TEST_KEYS.alice.privateKey,
    type: "TriggerSmartContract",
    value: { data, owner_address: hex(TEST_KEYS.alice.address), contract_address: hex(contract), ...extra },
    expirationMs: NOW + 600_000,
    nowMs: NOW,
    feeLimit: 100_000_000,
  });
}

const check = (tx: SignedTx) => checkSignedTransfer(JSON.stringify(tx), intent, NOW);
const mismatch = (tx: SignedTx) => {
  const result = check(tx);
  return result.ok ? "accepted" : result.reason === "mismatch" ? result.mismatch : result.reason;
};

describe("the signed transfer against the confirmed one", () => {
  it("accepts the transfer a wallet's tronWeb builds for the intent", () => {
    const tx = signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: TO, amountAtomic: 12_500_000n, expirationMs: NOW + 600_000, nowMs: NOW });
    expect(check(tx).ok).toBe(true);
    expect(check(call(transferCallData(intent))).ok).toBe(true);
  });

  it("names what differs in anything else", () => {
    const selector = (signature: string) => TronWeb.sha3(signature).slice(2, 10);
    const args = transferCallData(intent).slice(8);
    expect(mismatch(call(selector("approve(address,uint256)") + args))).toBe("approve");
    expect(mismatch(call(selector("increaseAllowance(address,uint256)") + args))).toBe("approve");
    expect(mismatch(call(selector("transferFrom(address,address,uint256)") + args + "0".repeat(64)))).toBe("transfer_from");
    expect(mismatch(call(selector("burn(uint256)") + args))).toBe("other_method");
    expect(mismatch(call(transferCallData(intent), {}, TEST_KEYS.dave.address))).toBe("other_contract");
    expect(mismatch(call(transferCallData({ ...intent, to: TEST_KEYS.erin.address })))).toBe("other_recipient");
    expect(mismatch(call(transferCallData({ ...intent, amountAtomic: "12500001" })))).toBe("other_amount");
    expect(mismatch(call(transferCallData(intent), { call_value: 1_000_000 }))).toBe("call_value");
    expect(mismatch(call(`${transferCallData(intent)}00`))).toBe("extra_data");
    expect(mismatch(signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TO, amountSun: 1, expirationMs: NOW + 600_000, nowMs: NOW }))).toBe(
      "not_a_contract_call",
    );
  });

  it("refuses what any broadcast would refuse before looking at what it does", () => {
    const unsigned = { ...call(transferCallData(intent)), signature: [] };
    expect(mismatch(unsigned)).toBe("no_signature");
    const late = signTrc20Transfer({ privateKey: TEST_KEYS.alice.privateKey, to: TO, amountAtomic: 12_500_000n, expirationMs: NOW + 50_000, nowMs: NOW });
    expect(mismatch(late)).toBe("insufficient_time");
  });
});
