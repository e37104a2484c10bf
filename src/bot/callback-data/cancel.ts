import { createCallbackData } from "./create-callback-data.js";

/**
 * The Cancel button of any flow: `cancel:<flow>`. Handled next to /cancel,
 * before the conversations, so it works while a conversation is waiting.
 */
export const cancelData = createCallbackData("cancel", ["flow"]);
