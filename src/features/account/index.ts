/** /link, /unlink and /webhook: connecting a chat to the service account, the key pasted anywhere, and the account's webhook route. */
export { createLinkConversation } from "./link-conversation.js";
export { createLinkFeature } from "./link-feature.js";
export { createUnlinkFeature } from "./unlink-feature.js";
export { createWebhookFeature } from "./webhook-feature.js";
export { createPastedKeyLinker, type PastedKeyHandler } from "./paste-link.js";
