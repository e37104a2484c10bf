import { createCallbackData } from "./create-callback-data.js";

/** Buttons of the link conversation: `link:skip` (no webhook secret). */
export const linkData = createCallbackData("link", ["action"]);
