/** Offline-signed transactions for the sandbox walk (test keys only; never for funds). */
import { randomAddress, signTrc20Transfer, signTrxTransfer, signContract, TEST_KEYS, type SignedTx } from "../../testkit/tron-sign.js";

export interface TxRequest {
  /** usdt (default): a USDT transfer; trx: a TRX transfer; call: another contract call. */
  kind?: "usdt" | "trx" | "call";
  /** Signer: one of the test keys (default alice). */
  signer?: keyof typeof TEST_KEYS;
  /** Recipient (default bob). */
  to?: string;
  /** USDT units (decimal string, e.g. "12.5") or TRX for kind trx. Default 10. */
  amount?: string;
  /** Seconds until expiration (default 600; the service wants >= 75). */
  expiresInSec?: number;
  /** JSON with base58 addresses instead of hex. */
  visible?: boolean;
}

function toAtomic(amount: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new Error(`amount must be a decimal number, got ${JSON.stringify(amount)}`);
  const frac = (m[2] ?? "").padEnd(decimals, "0");
  if (frac.length > decimals) throw new Error(`amount has more than ${decimals} decimals`);
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac || "0");
}

export function signTx(req: TxRequest): SignedTx {
  const signer = TEST_KEYS[req.signer ?? "alice"];
  if (!signer) throw new Error(`signer must be one of ${Object.keys(TEST_KEYS).join(", ")}`);
  const to = req.to ?? TEST_KEYS.bob.address;
  const now = Date.now();
  const common = { privateKey: signer.privateKey, nowMs: now, expirationMs: now + (req.expiresInSec ?? 600) * 1000, visible: req.visible ?? false };
  switch (req.kind ?? "usdt") {
    case "usdt":
      return signTrc20Transfer({ ...common, to, amountAtomic: toAtomic(req.amount ?? "10", 6) });
    case "trx":
      return signTrxTransfer({ ...common, to, amountSun: Number(toAtomic(req.amount ?? "1", 6)) });
    case "call":
      // A contract call that is not a token transfer: 130,000 energy in the simulator.
      return signContract({
        ...common,
        type: "TriggerSmartContract",
        value: { data: "deadbeef", owner_address: signer.address, contract_address: randomAddress() },
        visible: true,
        feeLimit: 30_000_000,
      });
    default:
      throw new Error("kind must be usdt, trx or call");
  }
}
