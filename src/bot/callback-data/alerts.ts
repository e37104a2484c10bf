import { createCallbackData } from "./create-callback-data.js";

/** An /alerts switch: `alerts:<deposits|lowBalance|foreignCharges>:<on|off>` (the target state, so a double tap is harmless). */
export const alertsData = createCallbackData("alerts", ["kind", "value"]);
