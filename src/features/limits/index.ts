/** /limits and /freeze: the chat's caps, second-tap threshold and freeze; the rules they enforce are shared domain in `shared/limits`. */
export { createLimitsFeature } from "./limits-feature.js";
// The card and its amounts, as the Mini App's Limits screen shows and reads them.
export { parseLimitAmount } from "./limits-feature.js";
export { limitsCardText } from "./limits-texts.js";
export { LIMIT_PRESETS_TRX } from "./limits-keyboards.js";
// A spend the limits refused or hold for a second tap, wherever it is asked: the words, and the buttons that resolve it.
