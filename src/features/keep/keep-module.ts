import type { Logger } from "pino";
import type { Translations } from "../../bot/i18n.js";
import { createKeepCardNotifier } from "./keep-card-notifier.js";
import { createKeepNotifier } from "./keep-notifier.js";
import { otherChatsOfAccount } from "../../bot/helpers/notifier-deps.js";
import type { ChatRepository } from "../../shared/chats/chat-repository.js";
import type { ChatZones } from "../../shared/limits/chat-zone.js";
import type { Links } from "../../bot/helpers/links.js";
import type { Config } from "../../config.js";
import { createKeepDaySummaries, type KeepDaySummaries } from "./keep-day-summary.js";
import { createKeepPlans, followPlanEvents, type KeepPlans } from "./keep-plans.js";
import type { AppEventSubscriber } from "../../shared/events.js";
import type { SpendGuardLike } from "./keep-step.js";
import type { Flows } from "../../shared/flows.js";
import type { OrderHistory } from "../../shared/orders/order-history.js";
import type { PricingCache } from "../../platform/service/pricing-cache.js";
import type { PushQueue } from "../../platform/push/index.js";
import type { ServiceClient } from "../../platform/service/client.js";
import type { Leases } from "../../platform/store/lease.js";
import type { JobsEngine } from "../../platform/jobs/jobs-engine.js";
import type { StoreBackend } from "../../platform/store/types.js";

export interface KeepModuleDeps {
  config: Pick<Config, "keep" | "defaultLocale" | "publicUrl">;
  /** The app storage's store and repositories (src/shared/storage.ts). */
  storage: { store: StoreBackend; jobs: JobsEngine; chats: ChatRepository; history: OrderHistory };
  /** This process's leases (one owner id per process), shared with the balance watch and the reminders. */
  leases: Leases;
  /** The plans follow their renewals' `tracking.changed` and a `chat.frozen` of their account here. */
  events: AppEventSubscriber;
  service: Pick<ServiceClient, "getBalance">;
  pricing: Pick<PricingCache, "get">;
  flows: Pick<Flows, "quotes" | "placer" | "history" | "now">;
  push: Pick<PushQueue, "enqueue">;
  i18n: Translations;
  /** The dashboard button under "create the deposit address in the dashboard" (DASHBOARD_URL). */
  links?: Links;
  logger: Logger;
  /** The chats' time zones: a plan's notices and card show times in its chat's, and its chat's midnight ends the summary's day. */
  zones: Pick<ChatZones, "zoneOf">;
  /** The clock the daily summaries read (tests move it past a midnight); the flows' otherwise. */
  summaryNow?: () => number;
  /** The spend guardrails, when wired: every renewal asks them first. */
  spend?: SpendGuardLike;
}

export interface KeepModule {
  keep: KeepPlans;
  /** The chats' opt-in daily summaries of their plans (/settings). */
  daySummaries: KeepDaySummaries;
}

/** Keep-charged plans, their cards and daily summaries, and the leases that make one process serve each plan. */
export function createKeepModule(deps: KeepModuleDeps): KeepModule {
  const { storage, config, logger } = deps;
  const { leases } = deps;
  const notifierDeps = {
    push: deps.push,
    chats: storage.chats,
    i18n: deps.i18n,
    defaultLocale: config.defaultLocale,
    logger,
    zones: deps.zones,
    ...(deps.links ? { links: deps.links } : {}),
  };
  const notifier = createKeepNotifier({ ...notifierDeps, accountChatsOf: otherChatsOfAccount(storage.chats) });
  // The plans are read back by the card as they stand when it is drawn; they exist by the time anything draws.
  let keep: KeepPlans | undefined = undefined;
  const cards = createKeepCardNotifier({
    ...notifierDeps,
    readPlan: async (planId) => keep?.store.get(planId),
    publicUrl: config.publicUrl,
    now: deps.flows.now,
  });
  const daySummaries = createKeepDaySummaries({
    store: storage.store,
    logger,
    now: deps.summaryNow ?? deps.flows.now,
    zones: deps.zones,
    history: storage.history,
    plans: { get: async (planId) => keep?.store.get(planId) },
    send: (summary) => cards.sendDaySummary(summary),
    claim: (key, ttlMs) => leases.claim(key, ttlMs),
    release: (key) => leases.release(key),
  });
  keep = createKeepPlans({
    store: storage.store,
    jobs: storage.jobs,
    leases,
    service: deps.service,
    pricing: deps.pricing,
    quotes: deps.flows.quotes,
    placer: deps.flows.placer,
    history: deps.flows.history,
    chats: storage.chats,
    onEvent: (event) => notifier.onEvent(event),
    onPlanChanged: (plan, redraw) => cards.draw(plan.planId, redraw),
    daily: daySummaries,
    logger,
    now: deps.flows.now,
    tickMs: config.keep.tickMs,
    leadMs: config.keep.leadMs,
    leadFraction: config.keep.leadMaxFraction,
    leaseTtlMs: config.keep.leaseTtlMs,
    balanceRecheckMs: config.keep.balanceRecheckMs,
    ...(deps.spend === undefined ? {} : { spend: deps.spend }),
  });
  followPlanEvents(deps.events, keep, storage.chats);
  return { keep, daySummaries };
}
