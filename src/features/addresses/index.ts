/** /addresses: the chat's address book, and the label flow other features open to save an address. */
export { createAddressesConversation } from "./addresses-conversation.js";
export { createAddressesFeature } from "./addresses-feature.js";
