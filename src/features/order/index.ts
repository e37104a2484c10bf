/**
 * /order: a quote with ✅ Confirm, the one-line `/order`, the guided order conversation and the batch order
 * from a CSV. The quotes, placing and batch progress they run on are shared domain in `shared/orders`.
 */
export { createOrderFeature } from "./order-feature.js";
export { createQuickOrderFeature } from "./order-quick-feature.js";
export { createBatchOrderFeature } from "./order-batch-feature.js";
export { createOrderConversation } from "./order-conversation.js";
// The batch's one card and its result CSV, as the batch notifier redraws them while the orders are fulfilled.
// The quote's and the step's buttons, as the cards of other flows (top-up, tracking, send, addresses) show them too.
// The steps of a flow (receiver, amount, duration, waiting for the next input), as the other conversations ask them.
