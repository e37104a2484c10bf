import { createCallbackData } from "./create-callback-data.js";

/** Buttons of the link conversation: `link:skip:<instance>` (no webhook secret; the run's id, helpers/flow-instance.ts). */
export const linkData = createCallbackData("link", ["action", "instance"]);
