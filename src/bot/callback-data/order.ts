import { createCallbackData } from "./create-callback-data.js";

/**
 * Buttons of the order flow. Step buttons carry the flow's random id, so a
 * button of an earlier flow is recognized and answered "expired".
 * `os:<flow>:a:<index>` a recent receiver, `os:<flow>:d:<durationSec>` a tier.
 */
export const orderStepData = createCallbackData("os", ["flow", "action", "value"]);

/**
 * Quote buttons: c confirm, x cancel, r retry (same key), f fresh quote, g check again (a fresh
 * quote on the same message), u unfreeze and check again, e change the receiver.
 */
export const quoteData = createCallbackData("q", ["quoteId", "action"]);

/** "Rent again" under a fulfilled order: the same receiver, amount and duration, quoted afresh. */
export const rentAgainData = createCallbackData("ra", ["orderId"]);
