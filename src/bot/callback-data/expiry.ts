import { createCallbackData } from "./create-callback-data.js";

/** The card's reminder switch: `rmd:<orderId>:<on|off>` (the target state, so a double tap is harmless). */
export const remindData = createCallbackData("rmd", ["orderId", "value"]);

/** "Resend" under a failed broadcast: the same signed transaction again (API section 3 rule 2). */
export const resendData = createCallbackData("rs", ["broadcastId"]);
