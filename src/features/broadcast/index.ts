/** /broadcast: a transaction the user signed, pasted or uploaded as JSON, checked, quoted and sent on ✅ Confirm; the checks, submitter and drafts are shared domain in `shared/broadcasts`. */
export { createBroadcastFeature } from "./broadcast-feature.js";
export { createBroadcastConversation } from "./broadcast-conversation.js";
// The buttons of a draft that failed or needs a top-up, wherever the failure is told (the tracking notifier, /send, the top-up card).
