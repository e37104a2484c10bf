import { createCallbackData } from "./create-callback-data.js";

/** A notification switch: `settings:<orders|broadcasts|expiry|keepday>:<on|off>` (the target state, so a double tap is harmless). */
export const settingsData = createCallbackData("settings", ["kind", "value"]);
