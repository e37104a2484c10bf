import { createCallbackData } from "./create-callback-data.js";

/** A language button: `lang:<locale>`. */
export const languageData = createCallbackData("lang", ["locale"]);
