import { createCallbackData } from "./create-callback-data.js";

/**
 * /limits buttons: `lim:<action>`. d, m, t, z ask for the daily cap, the monthly cap, the
 * second-tap threshold, the time zone; cd, cm, ct clear one; f freezes, u unfreezes
 * (the target state, so a double tap is harmless); s shows the card (from a refusal elsewhere).
 */
export const limitsData = createCallbackData("lim", ["action"]);

const LIMIT_INPUTS = ["d", "m", "t", "z"] as const;
export type LimitInput = (typeof LIMIT_INPUTS)[number];
export const isLimitInput = (value: string | undefined): value is LimitInput => LIMIT_INPUTS.some((v) => v === value);
