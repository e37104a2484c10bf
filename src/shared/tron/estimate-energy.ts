import type { TxKind } from "./transaction.js";

/**
 * Resource figures of service-api.md section 4 ("Fee"). The service simulates
 * the exact transaction; these are the documented approximations a client
 * uses to quote a fee before submitting.
 */
export const RESOURCE_ESTIMATES = {
  /** Token transfer to an address that already holds the token. */
  usdtExistingHolder: 64_000,
  /** Token transfer to an address that never held it (about twice as much). */
  usdtNewHolder: 130_000,
  /**
   * A plain TRX transfer costs bandwidth, not energy: about 270 bytes of
   * transaction plus a 65-byte signature, rounded up to 345 units.
   */
  trxTransferBandwidth: 345,
  /**
   * Any other contract call: its real cost is only known by simulating it
   * against chain state, so quote the conservative token-transfer figure.
   */
  otherContractEnergy: 130_000,
} as const;

export type ProvisionedResource = "ENERGY" | "BANDWIDTH";

/**
 * The resource the service provisions for a kind, and how much of it. TRX
 * transfers and system contracts (staking, delegation, votes, TRC10, account
 * creation…) run no code: they cost bandwidth, which is the size the chain
 * charges for the transaction (`bandwidthBytes`, see VerifiedTransaction), a
 * memo and extra signatures included; the fixed figure stands in only when
 * the size is not known.
 */
export function estimateResource(
  kind: TxKind,
  recipientHoldsToken: boolean | undefined,
  bandwidthBytes?: number,
): { resource: ProvisionedResource; amount: number } {
  if (kind === "trx" || kind === "system") return { resource: "BANDWIDTH", amount: bandwidthBytes ?? RESOURCE_ESTIMATES.trxTransferBandwidth };
  return { resource: "ENERGY", amount: estimateEnergy(kind, recipientHoldsToken) };
}

/**
 * Units of resource to quote for a broadcast (fee ≈ units × baseUnitPriceSun).
 * usdt: 64,000 when the recipient is known to hold the token, otherwise the
 * conservative 130,000 (unknown is treated as first-time). trx/system: bandwidth
 * units (see estimateResource). Other tokens' transfers and other contract
 * calls: the conservative 130,000, since their code is unknown here.
 */
export function estimateEnergy(kind: TxKind, recipientHoldsToken: boolean | undefined): number {
  switch (kind) {
    case "usdt":
      return recipientHoldsToken === true ? RESOURCE_ESTIMATES.usdtExistingHolder : RESOURCE_ESTIMATES.usdtNewHolder;
    case "trx":
      return RESOURCE_ESTIMATES.trxTransferBandwidth;
    case "system":
      return RESOURCE_ESTIMATES.trxTransferBandwidth;
    case "trc20":
    case "contract":
      return RESOURCE_ESTIMATES.otherContractEnergy;
  }
}
