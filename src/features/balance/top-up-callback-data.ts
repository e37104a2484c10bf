import { createCallbackData } from "../../bot/callback-data/create-callback-data.js";

/** "Top up" under a quote (`o`, quoteId) or a refused broadcast (`b`, draftId). */
export const topUpData = createCallbackData("tu", ["kind", "refId"]);
