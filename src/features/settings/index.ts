/** /settings, /language and the time zone picker: how the chat is spoken to and what clock it reads. */
export { createLanguageFeature } from "./language-feature.js";
export { createSettingsFeature } from "./settings-feature.js";
export { createTimeZoneFeature } from "./time-zone-feature.js";
export { ZONE_MATCHES_SHOWN } from "./time-zone-keyboards.js";
