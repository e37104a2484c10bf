/** /prices and /system: the live price tiers, and the service's pool snapshot and status. */
export { createPricesFeature } from "./prices-feature.js";
export { createSystemFeature } from "./system-feature.js";
