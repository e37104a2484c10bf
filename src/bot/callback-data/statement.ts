import { createCallbackData } from "./create-callback-data.js";

/** The statement card's buttons: `stmt:c:<yyyy-mm>` sends that month's CSV, `stmt:m:<yyyy-mm>` redraws the card for it. */
export const statementData = createCallbackData("stmt", ["action", "month"]);
