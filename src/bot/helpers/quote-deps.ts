import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "../../shared/burn-saving.js";
import type { PrepareQuoteDeps } from "../../shared/orders/prepare-quote.js";
import { USDT_MAINNET_CONTRACT } from "../../shared/tron/transaction.js";
import type { BotDeps } from "../deps.js";

/** The bot's own token contracts: never a receiver of energy (the service refuses a contract). */
export function knownContractsOf(flows: Pick<BotDeps["flows"], "usdtContract">): string[] {
  return [flows.usdtContract ?? USDT_MAINNET_CONTRACT];
}

/** What every quote of the bot is prepared with: the chat's limits, the known contracts and the burn price it is compared with. */
export function quoteDepsOf(deps: Pick<BotDeps, "pricing" | "service" | "flows" | "logger" | "config">): PrepareQuoteDeps {
  const { flows } = deps;
  return {
    pricing: deps.pricing,
    service: deps.service,
    quotes: flows.quotes,
    now: flows.now,
    logger: deps.logger,
    limits: flows.limits,
    knownContracts: knownContractsOf(flows),
    burnPriceSun: deps.config.energyBurnPriceSun ?? DEFAULT_ENERGY_BURN_PRICE_SUN,
  };
}
