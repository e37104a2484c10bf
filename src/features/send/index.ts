import type { Hono } from "hono";
import type { Config } from "../../config.js";
import type { StoreBackend } from "../../platform/store/types.js";
import { createSignedTransferAcceptor, type AcceptSignedDeps } from "./accept-signed.js";
import type { SendFeatureDeps } from "./send-feature.js";
import { createSendIntents } from "./send-intent.js";
import { signingPageRoutes } from "./signing-page.js";

export { createSendFeature, type SendFeatureDeps } from "./send-feature.js";
export { createSendConversation } from "./send-conversation.js";
// The use cases another face of /send (the Mini App's Send USDT screen) calls, exactly as the chat's flow does.
export { confirmSend } from "./send-confirm.js";
export type { SendIntents } from "./send-intent.js";
export { prepareSendQuote } from "./send-quote.js";
export { signingLink, signingText } from "./send-texts.js";

/** What the acceptor of signed transfers needs, with the store its intents live in and the settings. */
export interface SendModuleDeps extends Omit<AcceptSignedDeps, "intents"> {
  config: Pick<Config, "publicUrl" | "network">;
  store: StoreBackend;
}

/**
 * /send's parts: what the bot's feature needs, and the signing page's routes, which exist only with a
 * PUBLIC_URL (the links point there). Without one the command says what the operator must set.
 */
export function createSendModule(deps: SendModuleDeps): { bot: SendFeatureDeps; routes: ((app: Hono) => void)[] } {
  const intents = createSendIntents({ store: deps.store, logger: deps.logger });
  const bot: SendFeatureDeps = { intents, network: deps.config.network };
  const publicUrl = deps.config.publicUrl;
  if (publicUrl === undefined) {
    deps.logger.warn("PUBLIC_URL is not set: /send cannot give signing links (docs/send.md)");
    return { bot, routes: [] };
  }
  if (!publicUrl.startsWith("https://")) {
    deps.logger.warn({ publicUrl }, "PUBLIC_URL is not https: wallets and Telegram open signing links only over https in production");
  }
  const acceptor = createSignedTransferAcceptor({ ...deps, intents });
  const routes = signingPageRoutes({ intents, acceptor, i18n: deps.i18n, network: deps.config.network, publicUrl, now: deps.flows.now, logger: deps.logger });
  return { bot, routes: [routes] };
}
