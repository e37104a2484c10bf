import { z } from "zod";

/**
 * Response shapes of the service (service-api.md sections 2 and 4).
 * Objects are loose: the service adds fields over time and clients ignore them.
 * Status values are kept even when unknown (section 9 rule 4): an unknown
 * status is carried as its string and treated as unfinished.
 */

const hexId = z.string().regex(/^[0-9a-f]{24}$/i);
const sun = z.number().int().nonnegative();

export const ORDER_STATUSES = ["pending", "matching", "executing", "fulfilled"] as const;
export type KnownOrderStatus = (typeof ORDER_STATUSES)[number];
/** A known order status, or an unknown string that is treated as unfinished. */
export type OrderStatus = KnownOrderStatus | (string & {});

export const BROADCAST_STATUSES = ["pending_energy", "ready", "broadcasting", "confirming", "confirmed", "failed", "expired"] as const;
export type KnownBroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export type BroadcastStatus = KnownBroadcastStatus | (string & {});

export function isOrderFinished(status: OrderStatus): boolean {
  return status === "fulfilled";
}

const BROADCAST_FINISHED: ReadonlySet<string> = new Set(["confirmed", "failed", "expired"]);
export function isBroadcastFinished(status: BroadcastStatus): boolean {
  return BROADCAST_FINISHED.has(status);
}

export const balanceSchema = z.looseObject({
  availableSun: sun,
  depositAddress: z.string().nullable(),
});
export type Balance = z.infer<typeof balanceSchema>;

export const orderSchema = z.looseObject({
  orderId: hexId,
  status: z.string(),
  receiver: z.string(),
  resource: z.string(),
  resourceAmount: z.number().int(),
  remainAmount: z.number().int(),
  isMatching: z.boolean(),
  durationSec: z.number().int(),
  totalCostSun: sun,
  createdAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const createOrdersResponseSchema = z.looseObject({ orders: z.array(orderSchema).min(1) });
export const getOrderResponseSchema = z.looseObject({ order: orderSchema });

export const broadcastSchema = z.looseObject({
  broadcastId: hexId,
  kind: z.string(),
  status: z.string(),
  txId: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  /** Exact: a decimal integer string in the token's smallest unit. */
  amountAtomic: z.string().regex(/^\d+$/).optional(),
  resource: z.string(),
  resourceRequired: z.number().int(),
  energyRequired: z.number().int(),
  energyOrderId: z.string().optional(),
  totalCostSun: sun,
  broadcastTxid: z.string().optional(),
  failureReason: z.string().nullable().optional(),
  txExpirationMs: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Broadcast = z.infer<typeof broadcastSchema>;

export const createBroadcastResponseSchema = z.looseObject({
  broadcastId: hexId,
  status: z.string(),
});
export type BroadcastAccepted = z.infer<typeof createBroadcastResponseSchema>;
export const getBroadcastResponseSchema = z.looseObject({ broadcast: broadcastSchema });

export const pricingTierSchema = z.looseObject({
  durationSec: z.number().int().positive(),
  label: z.string(),
  unitPriceSun: sun,
});
export type PricingTier = z.infer<typeof pricingTierSchema>;

export const pricingSchema = z.looseObject({
  resource: z.string(),
  baseUnitPriceSun: sun,
  amountMin: z.number().int().positive(),
  amountMax: z.number().int().positive(),
  tiers: z.array(pricingTierSchema).min(1),
});
export type Pricing = z.infer<typeof pricingSchema>;

const integerString = z.string().regex(/^\d+$/);

export const systemSnapshotSchema = z.looseObject({
  provider: z.looseObject({
    registration: z.looseObject({
      grantActivePermissionTo: z.string(),
      requiredContractPermissions: z.array(z.string()),
      registerPath: z.string(),
      auth: z.string(),
      defaultPaymentFrequencyHours: z.number().int(),
      paymentFrequencyHoursRange: z.looseObject({ min: z.number().int(), max: z.number().int() }),
      defaultEnergyConfig: z.looseObject({
        minPrice: z.number().int(),
        profitShareBps: z.number().int(),
        minDelegateAmount: z.number().int(),
        maintainBuffer: z.number().int(),
        minDurationSec: z.number().int(),
        maxDurationSec: z.number().int(),
      }),
      instructions: z.string(),
    }),
  }),
  internalPools: z.looseObject({
    poolCount: z.number().int(),
    activeCount: z.number().int(),
    inactiveCount: z.number().int(),
    totalAvailableUnits: integerString,
    totalReservedUnits: integerString,
    totalMatchableUnits: integerString,
    resource: z.string(),
    unit: z.string(),
  }),
  updatedAt: z.string(),
});
export type SystemSnapshot = z.infer<typeof systemSnapshotSchema>;

/** RFC 7807 error envelope of section 7, with its documented extra members. */
export const errorEnvelopeSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  code: z.string(),
  requestId: z.string().optional(),
  seenIp: z.string().optional(),
  requiredSun: z.number().int().optional(),
  level: z.string().optional(),
  retryAfterSec: z.number().optional(),
  /**
   * Not documented: a service may name the existing broadcast on
   * `broadcast.duplicate_tx` (the simulator does, for the owner). Used when
   * present and well-formed, never required.
   */
  broadcastId: z
    .string()
    .regex(/^[0-9a-f]{24}$/i)
    .optional()
    .catch(undefined),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** An order item as POSTed (section 4). */
export interface OrderItemInput {
  toAddress: string;
  amount: number;
  resource: "ENERGY";
  durationSec: number;
}
