import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import type { AppEventSubscriber } from "../../shared/events.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { Leases } from "../../platform/store/lease.js";
import type { StoreBackend } from "../../platform/store/types.js";
import type { Logger } from "pino";
import { localDay, newerRenewal, spentTodaySun, type KeepPlan, type StopReason } from "./keep-plan.js";
import { createKeepStep, type KeepStepDeps } from "./keep-step.js";
import type { KeepLimits } from "./keep-proposal.js";
import { createKeepStore, type KeepDraft, type KeepStore } from "./keep-store.js";

/**
 * Keep-charged plans: the stored schedule, the user's operations on it, and
 * the renewals that serve it. Each running plan has a timed job (the `keep-plan`
 * kind of `platform/jobs/`) due when the plan next needs a look:
 * its next slot's time, or a tick later while it waits for a delivery or for
 * money. A look runs in the one process holding the plan's lease
 * (`keep-plan:<id>`), which claims it again at every look; a crashed holder's
 * lease runs out and another process's rescan takes the job over.
 */

export const KEEP_DEFAULTS = { tickMs: 5_000, leadMs: 60_000, leadFraction: 0.5, leaseTtlMs: 15_000, balanceRecheckMs: 30_000 } as const;

/** "asked": the user is looking at the card (a button of it); "background": the plan moved on by itself. */
export type CardRedraw = "asked" | "background";

/** A status of a plan's order as tracking saw it (the tracker's change of a renewal). */
export interface RenewalSighting {
  planId: string;
  orderId: string;
  status: string;
  /** The service's creation time of the order. */
  createdAtMs: number;
  /** When the status was seen; now when absent. */
  atMs?: number;
}

export interface KeepPlansDeps extends Omit<KeepStepDeps, "plans" | "now" | "leadMs" | "leadFraction" | "balanceRecheckMs"> {
  store: StoreBackend;
  jobs: JobsEngine;
  leases: Leases;
  /**
   * Draws the plan's card again (a plan without one has nothing to draw): called after every write that
   * changes what the card shows, whoever made it. Its failure is logged; the next change draws again.
   */
  onPlanChanged?: (plan: KeepPlan, redraw: CardRedraw) => Promise<void>;
  /** The daily summaries: looked at after each tick with the chats that have plans. */
  daily?: { look(chatIds: ReadonlySet<number>): Promise<void> };
  now?: () => number;
  tickMs?: number;
  leadMs?: number;
  leadFraction?: number;
  leaseTtlMs?: number;
  balanceRecheckMs?: number;
}

export type PlanAction = "pause" | "resume" | "stop";

export type ActionResult = { ok: true; plan: KeepPlan } | { ok: false; reason: "not_found" | "stopped" | "unchanged"; plan?: KeepPlan };

export type UpdateResult = { ok: true; plan: KeepPlan } | { ok: false; reason: "not_found" | "stopped"; plan?: KeepPlan };

export interface KeepPlans {
  readonly store: KeepStore;
  /** Makes the plan from a confirmed draft and buys its first slot now (in this process); `cardMessageId`: the message that becomes its card. */
  createFromDraft(draft: KeepDraft, extra: { linkId?: string; locale?: string; cardMessageId?: number }): Promise<KeepPlan>;
  list(chatId: number): Promise<KeepPlan[]>;
  act(chatId: number, planId: string, action: PlanAction): Promise<ActionResult>;
  /**
   * New limits (end, daily cap, active hours) for a plan that has not stopped, read as a proposal's are
   * (`readKeepEdit`): its slots, spend and newest order stay, and its card is drawn again.
   */
  update(chatId: number, planId: string, limits: KeepLimits): Promise<UpdateResult>;
  /** Freeze or unlink: every running plan of the chat stops; how many did. */
  stopAll(chatId: number, reason: "frozen" | "unlinked"): Promise<number>;
  /** What the chat's running plans need for their next slots together; undefined without any. */
  nextRenewalCostSun(chatId: number): Promise<bigint | undefined>;
  isPlanOrder(chatId: number, orderId: string): Promise<boolean>;
  /** A renewal's status seen by tracking: the plan's card shows it, when it is news about the plan's newest order. */
  onRenewalChange(seen: RenewalSighting): Promise<void>;
  /** Draws the chat's plan's card as it stands (the card's Refresh, the first draw after Start); false when the chat has no such plan. */
  drawCard(chatId: number, planId: string): Promise<boolean>;
  /** Spent on the plan on its current local day. */
  spentToday(plan: KeepPlan): bigint;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A running plan that knows when its next order is due (the lead, the active hours, the cap) has
 * nothing to do before then: no lease, key or chat read on every tick. A plan waiting for its
 * order's delivery has no such time and is looked at each tick.
 */
function isWaitingUntilLater(plan: KeepPlan, nowMs: number): boolean {
  return (
    plan.state === "active" &&
    (plan.waiting === "lead" || plan.waiting === "hours" || plan.waiting === "cap") &&
    plan.nextRenewalAtMs !== undefined &&
    nowMs < plan.nextRenewalAtMs
  );
}

/** When a plan needs its next look; undefined when nothing is to be done until the user acts (stopped, paused by them or by the limits). */
function nextLookAt(plan: KeepPlan | undefined, nowMs: number, tickMs: number): number | undefined {
  if (plan === undefined || plan.state === "stopped") return undefined;
  if (plan.state === "paused") return plan.pauseReason === "balance" ? Math.max(plan.balanceCheckAtMs ?? 0, nowMs + tickMs) : undefined;
  return isWaitingUntilLater(plan, nowMs) ? plan.nextRenewalAtMs : nowMs + tickMs;
}

const renewalJobSchema = z.object({ planId: z.string(), atMs: z.number().int() });
type RenewalJob = z.infer<typeof renewalJobSchema>;
/** A job's record outlives any wait of a running plan; each look writes it again. */
const RENEWAL_JOB_KEEP_MS = 400 * 24 * 60 * 60_000;

/** What the card shows of a plan: a write that changes none of it draws nothing. */
function cardView(p: KeepPlan): string {
  return JSON.stringify([
    p.state,
    p.pauseReason,
    p.stopReason,
    p.reasonCode,
    p.nextSlot,
    p.spentTotalSun,
    p.spentDay,
    p.waiting,
    p.nextRenewalAtMs,
    p.lastRenewal,
    p.cardMessageId,
  ]);
}

/** The plan after the user's button; the same object when the button changes nothing. */
function applyAction(p: KeepPlan, action: PlanAction, at: number): KeepPlan {
  if (p.state === "stopped") return p;
  switch (action) {
    case "stop":
      return { ...p, state: "stopped", stopReason: "user", waiting: undefined, nextRenewalAtMs: undefined, updatedAtMs: at };
    case "pause":
      return p.state === "paused" && p.pauseReason === "user" ? p : { ...p, state: "paused", pauseReason: "user", waiting: undefined, updatedAtMs: at };
    case "resume":
      return p.state === "active" ? p : { ...p, state: "active", pauseReason: undefined, balanceCheckAtMs: undefined, waiting: undefined, updatedAtMs: at };
  }
}

/** What the chat's running plans will spend on their next renewals, read from the plans as stored. */
async function nextRenewalCostOf(store: Pick<KeepStore, "ofChat">, chatId: number): Promise<bigint | undefined> {
  let total: bigint | undefined;
  for (const plan of await store.ofChat(chatId)) {
    if (plan.state === "stopped" || plan.lastCostSun === undefined) continue;
    total = (total ?? 0n) + BigInt(plan.lastCostSun);
  }
  return total;
}

/**
 * The same reading for those that need it before (or without) the plans' scheduler, such as the balance watch's
 * low-balance threshold: the plans are records in the store, whoever reads them.
 */
export function createRenewalCosts(deps: { store: StoreBackend; logger: Logger }): (chatId: number) => Promise<bigint | undefined> {
  const store = createKeepStore(deps);
  return (chatId) => nextRenewalCostOf(store, chatId);
}

export function createKeepPlans(deps: KeepPlansDeps): KeepPlans {
  const now = deps.now ?? Date.now;
  const logger = deps.logger.child({ component: "keep-plans" });
  const tickMs = deps.tickMs ?? KEEP_DEFAULTS.tickMs;
  const leaseTtlMs = Math.max(deps.leaseTtlMs ?? KEEP_DEFAULTS.leaseTtlMs, tickMs * 3);
  const stored = createKeepStore({ store: deps.store, logger });

  async function redraw(plan: KeepPlan, how: CardRedraw): Promise<void> {
    if (plan.cardMessageId === undefined || deps.onPlanChanged === undefined) return;
    await deps
      .onPlanChanged(plan, how)
      .catch((error: unknown) => logger.warn({ err: error, planId: plan.planId }, "keep plan card not drawn; the next change draws it"));
  }

  const inFlight = new Set<Promise<void>>();

  /** Work stop() waits for; the caller handles `p`'s failure, this bookkeeping never rethrows it. */
  function track(p: Promise<void>): Promise<void> {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  /**
   * Every write through this store (the scheduler's, Freeze's) draws the card when it changed what the card shows.
   * Not awaited: a card held up (a slow push queue, a stalled store write) must never hold up the plan's next order.
   */
  const store: KeepStore = {
    ...stored,
    async update(planId, fn) {
      let before: KeepPlan | undefined;
      const after = await stored.update(planId, (current) => {
        before = current;
        return fn(current);
      });
      if (after !== undefined && before !== undefined && cardView(before) !== cardView(after)) void track(redraw(after, "background"));
      return after;
    },
  };
  const step = createKeepStep({
    ...deps,
    plans: store,
    now,
    logger,
    leadMs: deps.leadMs ?? KEEP_DEFAULTS.leadMs,
    leadFraction: deps.leadFraction ?? KEEP_DEFAULTS.leadFraction,
    balanceRecheckMs: deps.balanceRecheckMs ?? KEEP_DEFAULTS.balanceRecheckMs,
  });
  /** Plans this process looked at under their lease: released at stop, so another process takes them over at once. */
  const held = new Set<string>();
  /** One look at a plan at a time in this process: a job falling due while Start's first look still runs waits for it. */
  const looking = new Map<string, Promise<void>>();
  let stopped = true;

  const leaseKey = (planId: string) => `keep-plan:${planId}`;

  const renewals = deps.jobs.define<RenewalJob>({
    kind: "keep-plan",
    namespace: "keep-renewals",
    schema: renewalJobSchema,
    version: 1,
    logger,
    now,
    dueAtMs: (job) => job.atMs,
    // The engine has claimed `keep-plan:<id>` for this run (the lease a look holds).
    run: (job) => look(job.planId),
    handlerKeepsRecords: true,
    claim: (key, ttlMs) => deps.leases.claim(key, ttlMs),
    leaseMs: leaseTtlMs,
    rescanIntervalMs: tickMs,
    retryDelayMs: tickMs,
  });

  /** Looks at the plan now (under its lease, which the caller holds) and times its next look, or ends its job. */
  function look(planId: string): Promise<void> {
    const current = looking.get(planId);
    if (current) return current;
    const run = (async () => {
      if (stopped) return;
      held.add(planId);
      await step(planId);
      const at = nextLookAt(await store.get(planId), now(), tickMs);
      if (at !== undefined) {
        await renewals.schedule(planId, { planId, atMs: at }, RENEWAL_JOB_KEEP_MS);
        return;
      }
      await renewals.cancel(planId);
      held.delete(planId);
      await deps.leases.release(leaseKey(planId));
    })().finally(() => looking.delete(planId));
    looking.set(planId, run);
    return track(run);
  }

  /** A plan the user made runnable again (Start, Resume, new limits) is looked at now, by whichever process holds its lease. */
  async function lookSoon(planId: string): Promise<void> {
    await renewals.schedule(planId, { planId, atMs: now() }, RENEWAL_JOB_KEEP_MS);
  }

  /** Plans stored without a job (written before jobs existed, or a crash between the two writes) get one at start. */
  async function adoptPlansWithoutJobs(): Promise<void> {
    for await (const [planId, plan] of store.all()) {
      if (stopped) return;
      if (nextLookAt(plan, now(), tickMs) === undefined || (await renewals.get(planId)) !== undefined) continue;
      await lookSoon(planId);
    }
  }

  /**
   * The daily summaries look every tick at the chats with plans (stopped ones too: one stopped today still has a
   * day to sum up). A look that cannot read the plans (the store is down) is told, and the next tick tries again.
   */
  let dayTimer: NodeJS.Timeout | undefined;
  let lookingAtDays = false;
  async function lookAtDays(daily: NonNullable<KeepPlansDeps["daily"]>): Promise<void> {
    if (lookingAtDays || stopped) return;
    lookingAtDays = true;
    try {
      const chats = new Set<number>();
      for await (const [, plan] of store.all()) chats.add(plan.chatId);
      if (!stopped) await daily.look(chats);
    } finally {
      lookingAtDays = false;
    }
  }

  function spentToday(plan: KeepPlan): bigint {
    return spentTodaySun(plan, now());
  }

  async function stopPlans(chatId: number, reason: StopReason): Promise<number> {
    let count = 0;
    for (const plan of await store.ofChat(chatId)) {
      const changed = await store.update(plan.planId, (p) =>
        p.state === "stopped" ? p : { ...p, state: "stopped", stopReason: reason, waiting: undefined, nextRenewalAtMs: undefined, updatedAtMs: now() },
      );
      if (changed?.stopReason === reason && plan.state !== "stopped") count += 1;
    }
    if (count > 0) logger.info({ chatId, reason, count }, "keep plans stopped");
    return count;
  }

  return {
    store,
    spentToday,

    async createFromDraft(draft, extra) {
      const at = now();
      const plan: KeepPlan = {
        planId: randomBytes(6).toString("hex"),
        chatId: draft.chatId,
        ...(extra.linkId === undefined ? {} : { linkId: extra.linkId }),
        address: draft.address,
        amount: draft.amount,
        durationSec: draft.durationSec,
        createdAtMs: at,
        ...(draft.endsAtMs === undefined ? {} : { endsAtMs: draft.endsAtMs }),
        ...(draft.dailyCapSun === undefined ? {} : { dailyCapSun: draft.dailyCapSun }),
        ...(draft.activeHours === undefined ? {} : { activeHours: draft.activeHours }),
        timeZone: draft.timeZone,
        ...(extra.locale === undefined ? {} : { locale: extra.locale }),
        ...(extra.cardMessageId === undefined ? {} : { cardMessageId: extra.cardMessageId }),
        state: "active",
        nextSlot: 0,
        slots: [],
        spentTotalSun: "0",
        spentDay: { day: localDay(draft.timeZone, at), sun: "0" },
        lastCostSun: (BigInt(draft.amount) * BigInt(draft.unitPriceSun)).toString(),
        updatedAtMs: at,
      };
      await store.create(plan);
      await store.deleteDraft(draft.draftId);
      logger.info({ planId: plan.planId, chatId: plan.chatId, durationSec: plan.durationSec }, "keep plan created");
      // The job first (a tick away): should this first look fail or the process die, the job looks again.
      await renewals.schedule(plan.planId, { planId: plan.planId, atMs: now() + tickMs }, RENEWAL_JOB_KEEP_MS);
      const firstLook = (await deps.leases.claim(leaseKey(plan.planId), leaseTtlMs)) ? look(plan.planId) : Promise.resolve();
      await firstLook.catch((error: unknown) =>
        logger.warn({ err: error, planId: plan.planId }, "first slot of a keep plan not bought yet; its job tries again"),
      );
      return (await store.get(plan.planId)) ?? plan;
    },

    list: (chatId) => store.ofChat(chatId),

    async act(chatId, planId, action) {
      const plan = await store.get(planId);
      if (plan?.chatId !== chatId) return { ok: false, reason: "not_found" };
      if (plan.state === "stopped") return { ok: false, reason: "stopped", plan };
      let changed = false;
      // Past the drawing store: the card is drawn as the answer to the tap, ahead of the chat's held refreshes.
      const updated = await stored.update(planId, (p) => {
        const next = applyAction(p, action, now());
        changed = next !== p;
        return next;
      });
      if (updated === undefined) return { ok: false, reason: "not_found" };
      if (!changed) return { ok: false, reason: updated.state === "stopped" ? "stopped" : "unchanged", plan: updated };
      logger.info({ planId, action }, "keep plan changed by the user");
      if (action === "resume") await lookSoon(planId);
      await redraw(updated, "asked");
      return { ok: true, plan: updated };
    },

    async update(chatId, planId, limits) {
      const plan = await store.get(planId);
      if (plan?.chatId !== chatId) return { ok: false, reason: "not_found" };
      let stoppedAlready = false;
      // Past the drawing store, as a tap: the card is drawn as the answer to the edit.
      const updated = await stored.update(planId, (p) => {
        if (p.state === "stopped") {
          stoppedAlready = true;
          return p;
        }
        const { endsAtMs: _end, dailyCapSun: _cap, activeHours: _hours, ...rest } = p;
        // A wait timed by the old hours, cap or end is timed again at the next look (what it waits for stays, so a cap still reached is not told twice).
        const recompute = p.waiting === "hours" || p.waiting === "cap" || p.waiting === "lead";
        return {
          ...rest,
          ...(limits.endsAtMs === undefined ? {} : { endsAtMs: limits.endsAtMs }),
          ...(limits.dailyCapSun === undefined ? {} : { dailyCapSun: limits.dailyCapSun.toString() }),
          ...(limits.activeHours === undefined ? {} : { activeHours: limits.activeHours }),
          ...(recompute ? { nextRenewalAtMs: undefined } : {}),
          updatedAtMs: now(),
        };
      });
      if (updated === undefined) return { ok: false, reason: "not_found" };
      if (stoppedAlready) return { ok: false, reason: "stopped", plan: updated };
      logger.info({ planId }, "keep plan limits changed by the user");
      if (nextLookAt(updated, now(), tickMs) !== undefined) await lookSoon(planId);
      await redraw(updated, "asked");
      return { ok: true, plan: updated };
    },

    stopAll: (chatId, reason) => stopPlans(chatId, reason),

    nextRenewalCostSun: (chatId) => nextRenewalCostOf(store, chatId),

    async isPlanOrder(chatId, orderId) {
      return (await store.ofChat(chatId)).some((p) => p.slots.some((s) => s.orderId === orderId));
    },

    async onRenewalChange(seen) {
      const sighting = { orderId: seen.orderId, status: seen.status, createdAtMs: seen.createdAtMs, atMs: seen.atMs ?? now() };
      // `updatedAtMs` stays: it names the plan's transitions (their notices' ids), and a sighting is none.
      const updated = await stored.update(seen.planId, (p) => {
        const next = newerRenewal(p.lastRenewal, sighting);
        return next === undefined ? p : { ...p, lastRenewal: next };
      });
      // Drawn even when this sighting changed nothing (and awaited, as part of the announcement): one offered again
      // because its first announcement died before the card's edit was queued still reaches the card, and an edit
      // queued or delivered already is dropped by its id.
      if (updated !== undefined) await redraw(updated, "background");
    },

    async drawCard(chatId, planId) {
      const plan = await store.get(planId);
      if (plan?.chatId !== chatId) return false;
      await redraw(plan, "asked");
      return true;
    },

    async start() {
      stopped = false;
      await renewals.start();
      // In the background, as any read of all the plans: a store that cannot be read now does not fail the start.
      const adopt = (): void => {
        if (stopped) return;
        track(adoptPlansWithoutJobs()).catch((error: unknown) => {
          logger.warn({ err: error }, "keep plans without a renewal job not looked for yet; looking again");
          setTimeout(adopt, tickMs).unref();
        });
      };
      adopt();
      const { daily } = deps;
      if (daily) {
        const lookSafely = () =>
          void track(lookAtDays(daily)).catch((error: unknown) => logger.warn({ err: error }, "keep daily summaries not looked at; the next tick does"));
        dayTimer = setInterval(lookSafely, tickMs);
        dayTimer.unref();
        lookSafely();
      }
    },

    async stop() {
      stopped = true;
      if (dayTimer) clearInterval(dayTimer);
      dayTimer = undefined;
      await renewals.stop();
      await Promise.allSettled([...inFlight]);
      // Another process may take these over at once instead of after the lease's time.
      for (const planId of held) {
        await deps.leases.release(leaseKey(planId)).catch((error: unknown) => logger.warn({ err: error, planId }, "keep plan lease not released"));
      }
      held.clear();
    },
  };
}

/**
 * The plans hear of their own orders: a renewal's change is drawn on its plan's card (orders have no failed
 * status; a renewal refused or not delivered is the plan's notice), and a freeze stops every plan of the
 * frozen chat's account at once (the limits would refuse their renewals anyway).
 */
export function followPlanEvents(
  events: AppEventSubscriber,
  plans: Pick<KeepPlans, "onRenewalChange" | "stopAll">,
  chats: Pick<ChatRepository, "account" | "accountChats">,
): void {
  events.on("tracking.changed", async (change) => {
    if (change.kind !== "order" || change.renewalOf === undefined) return;
    const createdAtMs = Date.parse(change.record.createdAt);
    await plans.onRenewalChange({
      planId: change.renewalOf,
      orderId: change.record.orderId,
      status: change.record.status,
      createdAtMs: Number.isNaN(createdAtMs) ? 0 : createdAtMs,
      ...(change.fulfilledAtMs === undefined ? {} : { atMs: change.fulfilledAtMs }),
    });
  });
  events.on("chat.frozen", async ({ chatId }) => {
    const accountId = (await chats.account(chatId))?.id;
    const family = accountId === undefined ? [chatId] : await chats.accountChats(accountId);
    for (const member of new Set([chatId, ...family])) await plans.stopAll(member, "frozen");
  });
}
