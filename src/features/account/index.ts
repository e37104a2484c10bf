/** /link, /unlink and /webhook: connecting a chat to the service account, the key pasted anywhere, and the account's webhook route. */
export { createLinkConversation, LINK_CONVERSATION } from "./link-conversation.js";
export { linkData } from "./link-callback-data.js";
export { createLinkFeature } from "./link-feature.js";
export { createUnlinkFeature } from "./unlink-feature.js";
export { createWebhookFeature, WEBHOOK_SECRET_CONVERSATION } from "./webhook-feature.js";
export { createPastedKeyLinker, type PastedKeyHandler } from "./paste-link.js";
export { isJustLinked, resumeAfterLink, startIntentsOf } from "./resume-after-link.js";
