/** Inline price queries (`@bot 100000 1h`) in any chat. */
export { createInlineQuoteFeature } from "./inline-quote-feature.js";
