/** /start, /help and the home card: the greeting, the main actions, and in-place navigation between screens. */
export { createHelpFeature } from "./help-feature.js";
export { createHomeFeature } from "./home-feature.js";
export { createStartFeature, startPayloadCommands } from "./start-feature.js";
