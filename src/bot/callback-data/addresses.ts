import { createCallbackData } from "./create-callback-data.js";

/**
 * /addresses buttons: `ab:<action>:<value>`. A page number for `p`; a full
 * address for the entry actions (`e` open, `r` rename, `d` ask to delete,
 * `y` delete): 41 bytes at most, and checked against the book on every press,
 * so a stale or forged one only answers "no longer in the book".
 */
export const addressesData = createCallbackData("ab", ["action", "value"]);
