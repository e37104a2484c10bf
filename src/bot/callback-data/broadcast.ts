import { createCallbackData } from "./create-callback-data.js";

/** Broadcast summary buttons: c confirm, x cancel, r retry. */
export const draftData = createCallbackData("bd", ["draftId", "action"]);
