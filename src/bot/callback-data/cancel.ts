import { createCallbackData } from "./create-callback-data.js";

/**
 * The Cancel button of any flow: `cancel:<flow>:<instance>` (the run's id,
 * helpers/flow-instance.ts). Handled next to /cancel, before the
 * conversations, so it works while a conversation is waiting, and only
 * cancels the run whose prompt carries it.
 */
export const cancelData = createCallbackData("cancel", ["flow", "instance"]);
