/** /addresses: the chat's address book, and the label flow other features open to save an address. */
export { ADDRESSES_CONVERSATION, createAddressesConversation, type AddressesConversationArgs } from "./addresses-conversation.js";
export { createAddressesFeature } from "./addresses-feature.js";
export { addressBookRefusalText } from "./addresses-texts.js";
