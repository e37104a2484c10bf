import type { Logger } from "pino";
import type { Translations } from "../bot/i18n.js";
import { createKeepNotifier } from "../bot/notifiers/keep-notifier.js";
import { otherChatsOfAccount } from "../bot/notifiers/notifier-deps.js";
import type { ChatZones } from "../core/limits/chat-zone.js";
import type { Links } from "../bot/helpers/links.js";
import type { Config } from "../config.js";
import { createKeepPlans, type KeepPlans } from "../core/autopilot/keep-plans.js";
import type { SpendGuardLike } from "../core/autopilot/keep-step.js";
import type { Flows } from "../core/flows.js";
import type { PricingCache } from "../core/pricing-cache.js";
import type { PushQueue } from "../core/push/index.js";
import type { ServiceClient } from "../core/service/client.js";
import type { Leases } from "../core/store/lease.js";
import type { Storage } from "./storage.js";

export interface AutopilotDeps {
  config: Pick<Config, "keep" | "defaultLocale">;
  storage: Pick<Storage, "store" | "chats">;
  /** This process's leases (one owner id per process), shared with the balance watch and the reminders. */
  leases: Leases;
  service: Pick<ServiceClient, "getBalance">;
  pricing: Pick<PricingCache, "get">;
  flows: Pick<Flows, "quotes" | "placer" | "history" | "now">;
  push: Pick<PushQueue, "enqueue">;
  i18n: Translations;
  /** The dashboard button under "create the deposit address in the dashboard" (DASHBOARD_URL). */
  links?: Links;
  logger: Logger;
  /** The chats' time zones: a plan's notices show times in its chat's. */
  zones?: Pick<ChatZones, "zoneOf">;
  /** The spend guardrails, when wired: every renewal asks them first. */
  spend?: SpendGuardLike;
}

export interface Autopilot {
  keep: KeepPlans;
}

/** Keep-charged plans and the leases that make one process serve each of them. */
export function createAutopilot(deps: AutopilotDeps): Autopilot {
  const { storage, config, logger } = deps;
  const { leases } = deps;
  const notifier = createKeepNotifier({
    push: deps.push,
    chats: storage.chats,
    accountChatsOf: otherChatsOfAccount(storage.chats),
    i18n: deps.i18n,
    defaultLocale: config.defaultLocale,
    logger,
    ...(deps.links ? { links: deps.links } : {}),
    ...(deps.zones ? { zones: deps.zones } : {}),
  });
  const keep = createKeepPlans({
    store: storage.store,
    leases,
    service: deps.service,
    pricing: deps.pricing,
    quotes: deps.flows.quotes,
    placer: deps.flows.placer,
    history: deps.flows.history,
    chats: storage.chats,
    onEvent: (event) => notifier.onEvent(event),
    logger,
    now: deps.flows.now,
    tickMs: config.keep.tickMs,
    leadMs: config.keep.leadMs,
    leadFraction: config.keep.leadMaxFraction,
    leaseTtlMs: config.keep.leaseTtlMs,
    balanceRecheckMs: config.keep.balanceRecheckMs,
    ...(deps.spend === undefined ? {} : { spend: deps.spend }),
  });
  return { keep };
}
