import { isValidTronAddress } from "../../src/shared/tron/index.js";
import { fail } from "./errors.js";
import { DOCUMENTED_DURATIONS, type PricingState } from "./pricing.js";

export const MAX_ITEMS = 100;
export const MAX_IDEMPOTENCY_KEY = 128;

export interface ValidItem {
  toAddress: string;
  amount: number;
  durationSec: number;
  unitPriceSun: number;
}

const ITEMS_REQUIRED = `items[] required (an array of 1 to ${MAX_ITEMS} entries)`;

export function validateIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key === "") throw fail.invalidField("Idempotency-Key required");
  if (key.length > MAX_IDEMPOTENCY_KEY) throw fail.invalidField(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  return key;
}

/**
 * Guard 1 (field validation) with the detail strings of section 4. Fields of
 * each item are checked in order toAddress, amount, resource, durationSec;
 * items in array order; the first failure wins.
 */
export function validateOrderBody(body: unknown, pricing: PricingState): ValidItem[] {
  const items = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["items"] : undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) throw fail.invalidField(ITEMS_REQUIRED);
  const { amountMin, amountMax } = pricing.record();
  return items.map((raw: unknown) => {
    const item = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const { toAddress, amount, resource, durationSec } = item;
    if (typeof toAddress !== "string" || !isValidTronAddress(toAddress)) throw fail.invalidField("toAddress must be a valid Tron address");
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0) throw fail.invalidField("amount must be a positive number");
    if (!Number.isInteger(amount)) throw fail.invalidField("amount must be an integer");
    if (amount < amountMin || amount > amountMax) throw fail.invalidField(`amount must be between ${amountMin} and ${amountMax}`);
    if (resource !== "ENERGY" && resource !== "BANDWIDTH") throw fail.invalidField("resource must be ENERGY or BANDWIDTH");
    if (resource !== "ENERGY") throw fail.invalidField("Only ENERGY orders are supported");
    const tier = typeof durationSec === "number" && Number.isInteger(durationSec) ? pricing.tier(durationSec) : undefined;
    if (tier === undefined || typeof durationSec !== "number") {
      throw fail.invalidField(`durationSec must be one of: ${DOCUMENTED_DURATIONS.join(", ")}`);
    }
    return { toAddress, amount, durationSec, unitPriceSun: tier.unitPriceSun };
  });
}
