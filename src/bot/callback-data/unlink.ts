import { createCallbackData } from "./create-callback-data.js";

/** Unlink confirmation: `unlink:yes` / `unlink:no`. */
export const unlinkData = createCallbackData("unlink", ["answer"]);
