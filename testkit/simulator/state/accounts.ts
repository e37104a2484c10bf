import { randomBytes } from "node:crypto";
import { utils } from "tronweb";
import { isValidTronAddress } from "../../../src/shared/tron/index.js";
import { SimError } from "../errors.js";
import type { CreateAccountOptions, CreateApiKeyOptions, Credentials, LedgerEntry, LedgerKind } from "../types.js";

export interface Account {
  accountId: string;
  balanceSun: number;
  hasWallet: boolean;
  depositAddress: string | null;
  address: string | undefined;
  ledger: LedgerEntry[];
}

export interface ApiKeyRecord {
  apiKey: string;
  accountId: string;
  webhookSecret: string;
  callbackUrl: string | null;
  ipAllowlist: string[] | null;
  revoked: boolean;
}

const MAX_ALLOWLIST = 32;

export function hexId(bytes = 12): string {
  return randomBytes(bytes).toString("hex");
}

function generatedAddress(): string {
  const a = utils.address.fromPrivateKey(randomBytes(32).toString("hex"));
  if (typeof a !== "string") throw new Error("address generation failed");
  return a;
}

/**
 * The dashboard is not part of the API, so production only allows public
 * https callbacks; the simulator also allows loopback http for tests.
 */
export function checkCallbackUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SimError(422, "validation.invalid_callback_url", `Callback URL is not a URL: ${url}`);
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
  if (parsed.protocol === "https:" || (parsed.protocol === "http:" && loopback)) return;
  throw new SimError(422, "validation.invalid_callback_url", "Callback URL must be a public https:// URL");
}

function checkAllowlist(list: string[] | null | undefined): string[] | null {
  if (list === null || list === undefined) return null;
  if (list.length > MAX_ALLOWLIST) throw new Error(`IP allowlist holds at most ${MAX_ALLOWLIST} entries`);
  return [...list];
}

/** Minimum account deposit credited automatically: 10 TRX. */
export const MIN_DEPOSIT_SUN = 10_000_000;

/** Accounts, their API keys and their balance ledger. */
export class AccountStore {
  private readonly accounts = new Map<string, Account>();
  private readonly keys = new Map<string, ApiKeyRecord>();

  constructor(private readonly now: () => number) {}

  createAccount(o: CreateAccountOptions = {}): Credentials & { accountId: string } {
    if (o.address !== undefined && !isValidTronAddress(o.address)) throw new Error(`invalid address ${o.address}`);
    const account: Account = {
      accountId: `acc_${hexId(8)}`,
      balanceSun: 0,
      hasWallet: o.hasWallet ?? true,
      depositAddress: o.depositAddress === undefined ? generatedAddress() : o.depositAddress,
      address: o.address,
      ledger: [],
    };
    this.accounts.set(account.accountId, account);
    if (o.balanceSun) this.credit(account.accountId, o.balanceSun, "initial");
    return { accountId: account.accountId, ...this.createApiKey(account.accountId) };
  }

  createApiKey(accountId: string, o: CreateApiKeyOptions = {}): Credentials {
    this.account(accountId);
    if (o.callbackUrl !== undefined) checkCallbackUrl(o.callbackUrl);
    const rec: ApiKeyRecord = {
      apiKey: `sk_sim_${hexId(16)}`,
      accountId,
      webhookSecret: `whsec_${hexId(16)}`,
      callbackUrl: o.callbackUrl ?? null,
      ipAllowlist: checkAllowlist(o.ipAllowlist),
      revoked: false,
    };
    this.keys.set(rec.apiKey, rec);
    return { apiKey: rec.apiKey, webhookSecret: rec.webhookSecret };
  }

  key(apiKey: string): ApiKeyRecord | undefined {
    return this.keys.get(apiKey);
  }

  private knownKey(apiKey: string): ApiKeyRecord {
    const k = this.keys.get(apiKey);
    if (!k) throw new Error("unknown API key");
    return k;
  }

  setCallbackUrl(apiKey: string, url: string | null): void {
    if (url !== null) checkCallbackUrl(url);
    this.knownKey(apiKey).callbackUrl = url;
  }

  setIpAllowlist(apiKey: string, list: string[] | null): void {
    this.knownKey(apiKey).ipAllowlist = checkAllowlist(list);
  }

  revokeKey(apiKey: string): void {
    this.knownKey(apiKey).revoked = true;
  }

  account(accountId: string): Account {
    const a = this.accounts.get(accountId);
    if (!a) throw new Error(`unknown account ${accountId}`);
    return a;
  }

  /** The account that signs with `address` (anonymous broadcasts). */
  accountByAddress(address: string): Account | undefined {
    for (const a of this.accounts.values()) if (a.address === address) return a;
    return undefined;
  }

  private entry(a: Account, kind: LedgerKind, amountSun: number, ref: string | undefined): void {
    a.ledger.push({ kind, amountSun, ...(ref === undefined ? {} : { ref }), at: new Date(this.now()).toISOString() });
  }

  /** A deposit; it also creates the wallet of an account that had none. */
  credit(accountId: string, sun: number, ref?: string): void {
    if (!Number.isSafeInteger(sun) || sun <= 0) throw new Error("credit must be a positive integer of sun");
    const a = this.account(accountId);
    a.hasWallet = true;
    a.balanceSun += sun;
    this.entry(a, "deposit", sun, ref);
  }

  /**
   * A transfer to the deposit address: credited only from the minimum deposit
   * up (service-api.md section 8); a smaller one is not credited and leaves
   * no ledger entry. Returns whether it was credited.
   */
  deposit(accountId: string, sun: number): boolean {
    if (!Number.isSafeInteger(sun) || sun <= 0) throw new Error("deposit must be a positive integer of sun");
    this.account(accountId);
    if (sun < MIN_DEPOSIT_SUN) return false;
    this.credit(accountId, sun);
    return true;
  }

  debit(accountId: string, sun: number, ref: string): void {
    const a = this.account(accountId);
    if (a.balanceSun < sun) throw new Error("debit beyond balance");
    a.balanceSun -= sun;
    this.entry(a, "debit", sun, ref);
  }

  refund(accountId: string, sun: number, ref: string): void {
    const a = this.account(accountId);
    a.balanceSun += sun;
    this.entry(a, "refund", sun, ref);
  }

  balanceOf(accountId: string): number {
    return this.account(accountId).balanceSun;
  }

  ledger(accountId: string): LedgerEntry[] {
    return this.account(accountId).ledger.map((e) => ({ ...e }));
  }
}
