import { USDT_MAINNET_CONTRACT } from "../../../src/shared/tron/index.js";
import type { ChainControl } from "../types.js";

/**
 * The little chain state the service consults before touching the network:
 * deliverability of order receivers, token balances and holders, and
 * addresses whose transactions fail simulation.
 */
export class ChainState implements ChainControl {
  private readonly inactive = new Set<string>();
  private readonly contracts = new Set<string>();
  private readonly tokenBalances = new Map<string, bigint>();
  private readonly holders = new Map<string, boolean>();
  private readonly reverting = new Set<string>();
  private readonly noBandwidth = new Set<string>();

  constructor(usdtContract: string = USDT_MAINNET_CONTRACT) {
    this.contracts.add(usdtContract);
  }

  setActivated(address: string, activated: boolean): void {
    if (activated) this.inactive.delete(address);
    else this.inactive.add(address);
  }

  setContract(address: string, isContract = true): void {
    if (isContract) this.contracts.add(address);
    else this.contracts.delete(address);
  }

  setTokenBalance(address: string, atomic: bigint): void {
    this.tokenBalances.set(address, atomic);
  }

  setHoldsToken(address: string, holds: boolean): void {
    this.holders.set(address, holds);
  }

  setReverts(address: string, reverts: boolean): void {
    if (reverts) this.reverting.add(address);
    else this.reverting.delete(address);
  }

  setNoBandwidth(address: string, noBandwidth: boolean): void {
    if (noBandwidth) this.noBandwidth.add(address);
    else this.noBandwidth.delete(address);
  }

  isActivated(address: string): boolean {
    return !this.inactive.has(address);
  }

  isContract(address: string): boolean {
    return this.contracts.has(address);
  }

  /** `undefined` means not modelled: treated as enough for any transfer. */
  tokenBalance(address: string): bigint | undefined {
    return this.tokenBalances.get(address);
  }

  /** Explicit flag first; otherwise a modelled positive balance counts as holding. */
  holdsToken(address: string): boolean {
    const flag = this.holders.get(address);
    if (flag !== undefined) return flag;
    return (this.tokenBalances.get(address) ?? 0n) > 0n;
  }

  reverts(address: string): boolean {
    return this.reverting.has(address);
  }

  lacksBandwidth(address: string): boolean {
    return this.noBandwidth.has(address);
  }

  /** A confirmed token transfer moves the modelled balances. */
  applyTokenTransfer(from: string, to: string, amount: bigint): void {
    const fromBal = this.tokenBalances.get(from);
    if (fromBal !== undefined) this.tokenBalances.set(from, fromBal - amount);
    const toBal = this.tokenBalances.get(to);
    if (toBal !== undefined) this.tokenBalances.set(to, toBal + amount);
    if (amount > 0n && this.holders.get(to) !== true) this.holders.set(to, true);
  }
}
