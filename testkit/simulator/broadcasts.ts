import { describeTxRefusal, estimateResource, verifySignedTransaction, type TxRejection, type VerifiedTransaction } from "../../src/shared/tron/index.js";
import { fail, SimError } from "./errors.js";
import { hexId, type ApiKeyRecord } from "./state/accounts.js";
import { isoNow, targetOf, type SimContext, type SimResponse } from "./context.js";
import type { BroadcastOutcome } from "./types.js";

export interface BroadcastRecord {
  broadcastId: string;
  kind: "usdt" | "tron";
  status: string;
  txId: string;
  fromAddress: string;
  toAddress: string;
  amountAtomic?: string;
  resource: "ENERGY" | "BANDWIDTH";
  resourceRequired: number;
  energyRequired: number;
  energyOrderId?: string;
  totalCostSun: number;
  broadcastTxid?: string;
  failureReason: string | null;
  txExpirationMs: number;
  createdAt: string;
  updatedAt: string;
}

interface Entity {
  record: BroadcastRecord;
  accountId: string;
  apiKey: string | undefined;
  armed: boolean;
}

const NEXT_STATUS: Record<string, string | undefined> = {
  pending_energy: "ready",
  ready: "broadcasting",
  broadcasting: "confirming",
  confirming: "final",
};
const FINISHED = new Set(["confirmed", "failed", "expired"]);
export const DEFAULT_FAILURE_REASONS: Record<Exclude<BroadcastOutcome, "confirmed">, string> = {
  failed: "delivery_failed",
  expired: "expired_before_confirmation",
};

const REJECTIONS: Record<TxRejection, [number, string]> = {
  not_object: [400, "broadcast.malformed"],
  malformed: [400, "broadcast.malformed"],
  multiple_contracts: [422, "broadcast.unsupported_contract"],
  txid_mismatch: [422, "broadcast.invalid_tx"],
  raw_data_mismatch: [422, "broadcast.invalid_tx"],
  no_signature: [400, "broadcast.no_signature"],
  unsupported_contract: [422, "broadcast.unsupported_contract"],
  // Everything java-tron refuses about the signatures reads as an invalid transaction.
  bad_signature: [422, "broadcast.invalid_tx"],
  too_many_signatures: [422, "broadcast.invalid_tx"],
  signature_format: [422, "broadcast.invalid_tx"],
  duplicate_signature: [422, "broadcast.invalid_tx"],
  extra_signature: [422, "broadcast.invalid_tx"],
  permission_not_owner: [422, "broadcast.invalid_tx"],
  expired: [422, "broadcast.tx_expired"],
  insufficient_time: [422, "broadcast.insufficient_time"],
  // java-tron refuses it outright; the service would pass that refusal on before charging.
  expiration_too_far: [422, "broadcast.invalid_tx"],
};

/** The service checks the signature against fromAddress: every refusal about who signed says so. */
const SIGNER_REFUSALS = new Set<TxRejection>(["bad_signature", "permission_not_owner"]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** POST/GET /v1/broadcasts: verification, who pays, dedup by txId, lifecycle and refunds. */
export class BroadcastDesk {
  private readonly broadcasts = new Map<string, Entity>();
  private readonly latestByTxId = new Map<string, string>();
  private readonly outcomes = new Map<string, { outcome: BroadcastOutcome; reason: string | undefined }>();

  constructor(private readonly ctx: SimContext) {}

  submit(key: ApiKeyRecord | undefined, body: unknown): SimResponse {
    const signedTx = isPlainObject(body) ? body["signedTx"] : undefined;
    if (!isPlainObject(signedTx)) throw fail.invalidField("signedTx required (the complete signed transaction object)");
    const v = verifySignedTransaction(signedTx, this.ctx.now(), { usdtContract: this.ctx.usdtContract });
    if (!v.ok) {
      const [status, code] = REJECTIONS[v.reason];
      const detail = SIGNER_REFUSALS.has(v.reason) ? `Signature does not match fromAddress (${describeTxRefusal(v)})` : describeTxRefusal(v);
      throw new SimError(status, code, detail);
    }
    const tx = v.tx;
    const accountId = this.payer(key, tx);
    this.checkDuplicate(tx.txId, accountId);
    this.simulate(tx);

    const holds = tx.kind === "usdt" && tx.toAddress ? this.ctx.chain.holdsToken(tx.toAddress) : undefined;
    const { resource, amount } = estimateResource(tx.kind, holds, tx.bandwidthBytes);
    const fee = amount * this.ctx.pricing.baseUnitPriceSun;
    const account = this.ctx.accounts.account(accountId);
    const available = account.hasWallet ? account.balanceSun : 0;
    if (!account.hasWallet || fee > available) throw fail.insufficientBalance(fee, available);

    const now = isoNow(this.ctx);
    const record: BroadcastRecord = {
      broadcastId: hexId(),
      kind: tx.kind === "usdt" ? "usdt" : "tron",
      status: "pending_energy",
      txId: tx.txId,
      fromAddress: tx.ownerAddress,
      toAddress: tx.toAddress ?? tx.contractAddress ?? tx.ownerAddress,
      ...(tx.amountAtomic === undefined ? {} : { amountAtomic: tx.amountAtomic }),
      resource,
      resourceRequired: amount,
      energyRequired: resource === "ENERGY" ? amount : 0,
      ...(resource === "ENERGY" ? { energyOrderId: hexId() } : {}),
      totalCostSun: fee,
      failureReason: null,
      txExpirationMs: tx.expirationMs,
      createdAt: now,
      updatedAt: now,
    };
    this.ctx.accounts.debit(accountId, fee, record.broadcastId);
    this.ctx.statusChanges.push({ kind: "broadcast", id: record.broadcastId, status: record.status, at: this.ctx.now() });
    const entity: Entity = { record, accountId, apiKey: key?.apiKey, armed: false };
    this.broadcasts.set(record.broadcastId, entity);
    this.latestByTxId.set(record.txId, record.broadcastId);
    this.notify(entity, "broadcast.accepted");
    this.scheduleStep(entity);
    return { status: 202, body: { broadcastId: record.broadcastId, status: "pending_energy" } };
  }

  /** Bearer key: its account (sponsored). Anonymous: the account owning fromAddress. */
  private payer(key: ApiKeyRecord | undefined, tx: VerifiedTransaction): string {
    if (key) return key.accountId;
    const owner = this.ctx.accounts.accountByAddress(tx.ownerAddress);
    if (!owner) throw new SimError(422, "wallet.not_registered", `No account is registered for ${tx.ownerAddress}`);
    return owner.accountId;
  }

  private checkDuplicate(txId: string, accountId: string): void {
    const existingId = this.latestByTxId.get(txId);
    const existing = existingId === undefined ? undefined : this.broadcasts.get(existingId);
    if (!existing || existing.record.status === "failed" || existing.record.status === "expired") return;
    const mine = existing.accountId === accountId;
    throw new SimError(
      409,
      "broadcast.duplicate_tx",
      existing.record.status === "confirmed" ? `Transaction ${txId} is already confirmed` : `Transaction ${txId} is already being broadcast`,
      mine ? { broadcastId: existing.record.broadcastId } : {},
    );
  }

  /** What simulating the transaction against chain state would say. */
  private simulate(tx: VerifiedTransaction): void {
    const chain = this.ctx.chain;
    if (chain.reverts(tx.ownerAddress) || (tx.contractAddress !== undefined && chain.reverts(tx.contractAddress))) {
      throw new SimError(422, "broadcast.tx_would_revert", "Transaction simulation failed: REVERT opcode executed");
    }
    if (tx.kind === "usdt" && tx.amountAtomic !== undefined) {
      const held = chain.tokenBalance(tx.ownerAddress);
      if (held !== undefined && held < BigInt(tx.amountAtomic)) {
        throw new SimError(422, "broadcast.insufficient_usdt", `Sender holds ${held} atomic units, transfer needs ${tx.amountAtomic}`);
      }
    }
    if (chain.lacksBandwidth(tx.ownerAddress)) {
      throw new SimError(422, "broadcast.insufficient_bandwidth", `Sender ${tx.ownerAddress} cannot cover the bandwidth needed`);
    }
  }

  private notify(e: Entity, event: "broadcast.accepted" | "broadcast.confirmed" | "broadcast.failed"): void {
    if (e.apiKey === undefined) return;
    this.ctx.webhooks.send(targetOf(this.ctx.accounts.key(e.apiKey)), event, "broadcast", { ...e.record });
  }

  private scheduleStep(e: Entity): void {
    if (e.armed) return;
    e.armed = true;
    this.ctx.scheduler.step(this.ctx.broadcastStepMs, () => {
      e.armed = false;
      const next = NEXT_STATUS[e.record.status];
      if (next === undefined) return;
      if (next === "final") this.finish(e);
      else {
        this.apply(e, next);
        this.scheduleStep(e);
      }
    });
  }

  private finish(e: Entity): void {
    const chosen = this.outcomes.get(e.record.txId) ?? this.outcomes.get("*") ?? { outcome: "confirmed", reason: undefined };
    let { outcome, reason } = chosen;
    if (outcome === "confirmed" && this.ctx.now() >= e.record.txExpirationMs) {
      outcome = "expired";
      reason = undefined;
    }
    this.apply(e, outcome, reason);
  }

  private apply(e: Entity, status: string, failureReason?: string): void {
    const r = e.record;
    this.ctx.statusChanges.push({ kind: "broadcast", id: r.broadcastId, status, at: this.ctx.now() });
    if (FINISHED.has(r.status)) {
      r.status = status;
      r.updatedAt = isoNow(this.ctx);
      return;
    }
    r.status = status;
    r.updatedAt = isoNow(this.ctx);
    if (status === "confirming" || status === "confirmed") r.broadcastTxid = r.txId;
    if (status === "confirmed") {
      if (r.kind === "usdt" && r.amountAtomic !== undefined) {
        this.ctx.chain.applyTokenTransfer(r.fromAddress, r.toAddress, BigInt(r.amountAtomic));
      }
      this.notify(e, "broadcast.confirmed");
    }
    if (status === "failed" || status === "expired") {
      r.failureReason = failureReason ?? DEFAULT_FAILURE_REASONS[status];
      this.ctx.accounts.refund(e.accountId, r.totalCostSun, r.broadcastId);
      this.notify(e, "broadcast.failed");
    }
  }

  get(key: ApiKeyRecord, broadcastId: string): SimResponse {
    const e = this.broadcasts.get(broadcastId);
    if (!e || e.accountId !== key.accountId) throw fail.notFound(`Broadcast ${broadcastId} not found`);
    return { status: 200, body: { broadcast: { ...e.record } } };
  }

  setOutcome(txIdOrAll: string, outcome: BroadcastOutcome, failureReason?: string): void {
    this.outcomes.set(txIdOrAll, { outcome, reason: failureReason });
  }

  /** Test control. Terminal states apply their side effects (refund, events) once. */
  setStatus(broadcastId: string, status: string, failureReason?: string): void {
    const e = this.broadcasts.get(broadcastId);
    if (!e) throw new Error(`unknown broadcast ${broadcastId}`);
    this.apply(e, status, failureReason);
    if (NEXT_STATUS[status] !== undefined) this.scheduleStep(e);
  }
}
