import type { Api } from "grammy";
import type { Hono } from "hono";
import type { Config } from "../config.js";
import type { Flows } from "../shared/flows.js";
import type { PricingCache } from "../platform/service/pricing-cache.js";
import type { ServiceClient } from "../platform/service/client.js";
import type { KeepCardOpener, KeepPlans } from "../features/keep/index.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../shared/burn-saving.js";
import { quoteDepsOf } from "../bot/helpers/quote-deps.js";
import type { SendFeatureDeps } from "../features/send/index.js";
import { miniAppApiRoutes, type MiniAppApiDeps } from "./mini-app-api.js";
import { miniAppFormsRoutes } from "./mini-app-forms.js";
import { miniAppKeepRoutes } from "./mini-app-keep.js";
import { miniAppOrderRoutes } from "./mini-app-order.js";
import { miniAppSendRoutes } from "./mini-app-send.js";
import { miniAppSpendRoutes } from "./mini-app-spend.js";
import { miniAppPageRoutes } from "./mini-app-page.js";

export interface MiniAppModuleDeps extends Omit<MiniAppApiDeps, "botToken" | "defaultLocale" | "burnPriceSun" | "flows" | "service"> {
  config: Config;
  flows: Flows;
  service: ServiceClient;
  pricing: PricingCache;
  /** Keep-charged plans, when the autopilot runs: the Keep screen's list, New plan and Edit. */
  keep?: KeepPlans;
  /** Sends the chat the message a plan started in the app becomes the card of (the bot's API handle). */
  openKeepCard?: KeepCardOpener;
  /** /send's intents and network, when the signing page is served: the Send USDT screen. */
  send?: SendFeatureDeps;
}

export interface MiniAppModule {
  routes: ((app: Hono) => void)[];
  /** The Mini App's https address, when Telegram can open it. */
  url: string | undefined;
  /** Sets the private chats' menu button to the app (only with an https PUBLIC_URL); never throws. */
  offer(api: Pick<Api, "setChatMenuButton">): Promise<void>;
}

/**
 * The Mini App (docs/mini-app.md): its page and API are served whenever PUBLIC_URL is set (relative URLs:
 * any host that reaches the server works, loopback included), and offered as the menu button of every
 * private chat only when PUBLIC_URL is https, since Telegram opens nothing else. Why there is no app is
 * said once, in the log, at start.
 */
export function createMiniAppModule(deps: MiniAppModuleDeps): MiniAppModule {
  const { config, logger } = deps;
  const publicUrl = config.publicUrl?.replace(/\/+$/, "");
  if (publicUrl === undefined) {
    logger.warn("PUBLIC_URL is not set: no Mini App is served or offered (docs/mini-app.md)");
    return { routes: [], url: undefined, offer: async () => {} };
  }
  // The Order screen quotes and places through the chat's own use cases, prepared exactly as /order's.
  const order = miniAppOrderRoutes({
    i18n: deps.i18n,
    pricing: deps.pricing,
    flows: deps.flows,
    quoteDeps: quoteDepsOf({ pricing: deps.pricing, service: deps.service, flows: deps.flows, logger, config }),
    logger,
  });
  const spend = miniAppSpendRoutes({
    i18n: deps.i18n,
    chats: deps.chats,
    flows: deps.flows,
    links: deps.links,
    burnPriceSun: config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN,
  });
  const forms = miniAppFormsRoutes({ i18n: deps.i18n, flows: deps.flows });
  const keep = miniAppKeepRoutes({
    i18n: deps.i18n,
    pricing: deps.pricing,
    flows: deps.flows,
    logger,
    ...(deps.keep ? { keep: deps.keep } : {}),
    ...(deps.openKeepCard ? { openCard: deps.openKeepCard } : {}),
  });
  // Send USDT hands over to /send's signing page, which exists with the same PUBLIC_URL as the app.
  const send =
    deps.send === undefined
      ? undefined
      : miniAppSendRoutes({
          i18n: deps.i18n,
          pricing: deps.pricing,
          flows: deps.flows,
          intents: deps.send.intents,
          usdtContract: deps.send.network.usdtContract,
          burnPriceSun: config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN,
          publicUrl,
          logger,
        });
  const routes = [
    miniAppPageRoutes({ i18n: deps.i18n, defaultLocale: config.defaultLocale }),
    miniAppApiRoutes(
      {
        ...deps,
        botToken: config.botToken,
        defaultLocale: config.defaultLocale,
        burnPriceSun: config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN,
        sendable: send !== undefined,
      },
      [order, spend, forms, keep, ...(send ? [send] : [])],
    ),
  ];
  if (!publicUrl.startsWith("https://")) {
    logger.warn(
      { publicUrl },
      "PUBLIC_URL is not https: the Mini App is served at /app but not offered, Telegram opens only https Mini Apps (docs/mini-app.md)",
    );
    return { routes, url: undefined, offer: async () => {} };
  }
  const url = `${publicUrl}/app`;
  return {
    routes,
    url,
    async offer(api) {
      // The process that takes Telegram's updates owns what the chats see of the bot; a worker sets nothing.
      if (config.botMode === "worker") return;
      try {
        // The default button of every private chat, in one call: chats linked before the app existed get it
        // too, and an unlinked chat's app says how to link. Telegram has no per-language default, so its
        // label is in DEFAULT_LOCALE.
        await api.setChatMenuButton({
          menu_button: { type: "web_app", text: deps.i18n.t(config.defaultLocale, "mini-app-menu-button"), web_app: { url } },
        });
        logger.info({ url }, "Mini App offered as the private chats' menu button");
      } catch (error) {
        // A convenience: the chat works without it, and the next start tries again.
        logger.warn({ err: error }, "setChatMenuButton failed: the Mini App is served but not offered");
      }
    },
  };
}
