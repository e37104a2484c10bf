import { createCallbackData } from "./create-callback-data.js";

/**
 * /limits buttons: `lim:<action>`. d, m, t turn the card into the choices for the daily cap, the
 * monthly cap, the second-tap threshold (`limitPresetData`); z asks for the time zone; b draws the
 * card again (◀️ Back from the choices); cd, cm, ct clear one (the "No limit" that prompts already
 * in chats carry); f freezes, u unfreezes (the target state, so a double tap is
 * harmless); s shows the card (from a refusal elsewhere).
 */
export const limitsData = createCallbackData("lim", ["action"]);

const LIMIT_INPUTS = ["d", "m", "t", "z"] as const;
export type LimitInput = (typeof LIMIT_INPUTS)[number];
export const isLimitInput = (value: string | undefined): value is LimitInput => LIMIT_INPUTS.some((v) => v === value);

/** The amounts /limits offers choices for: every setting but the zone. */
export type LimitAmountInput = Exclude<LimitInput, "z">;
export const isLimitAmountInput = (value: string | undefined): value is LimitAmountInput => value !== "z" && isLimitInput(value);

/**
 * A choice for one amount, on the card: `limp:<d|m|t>:<value>` with value a preset in whole TRX (read as
 * typed TRX are), `x` no limit, or `c` to type the amount.
 */
export const limitPresetData = createCallbackData("limp", ["input", "value"]);
