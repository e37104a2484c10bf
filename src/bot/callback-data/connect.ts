import { createCallbackData } from "./create-callback-data.js";

/** "Connect" under the welcome of a deep link followed before linking: `connect:order` opens the link flow. */
export const connectData = createCallbackData("connect", ["then"]);
