import { z } from "zod";
import { SUPPORTED_LOCALES } from "../../config.js";

/**
 * One Telegram chat as the bot remembers it. The API key and webhook secret
 * are only ever present sealed by the vault (bound to this chat id), so a
 * copy of the row in another chat's record does not open.
 */
export const chatRecordSchema = z.object({
  chatId: z.number().int(),
  apiKeySealed: z.string().min(1).optional(),
  webhookSecretSealed: z.string().min(1).optional(),
  /** Path segment of the chat's callback URL `${PUBLIC_URL}/hooks/<routeId>`. */
  routeId: z.string().min(22).optional(),
  /** The /language choice: wins over everything else. */
  locale: z.enum(SUPPORTED_LOCALES).optional(),
  /**
   * The Telegram `language_code` last seen from the chat's user (private
   * chats): what messages no tap started (alerts, relayed events) are written
   * in when there is no /language choice.
   */
  languageCode: z.string().min(1).max(35).optional(),
  notifications: z.object({ orders: z.boolean(), broadcasts: z.boolean() }),
  /** False once Telegram answered 403 (blocked, kicked); set back to true when the chat writes again. */
  active: z.boolean(),
  linkedAt: z.string().optional(),
  /**
   * The linked account (`account-id.ts`): what history is kept under. Absent
   * on a chat linked before accounts were told apart; derived from its key then.
   */
  accountId: z.string().min(1).optional(),
  /**
   * What the chat is called (a group's title, a private chat's first name), kept at link: the account's other
   * chats name it on what it placed.
   */
  title: z.string().min(1).max(128).optional(),
  /** New at every link: a quote or draft made under an earlier link is never confirmed under this one. */
  linkId: z.string().min(1).optional(),
  updatedAt: z.string(),
});

export type ChatRecord = z.infer<typeof chatRecordSchema>;
export type NotificationSettings = ChatRecord["notifications"];

export const CHAT_RECORD_VERSION = 1;

export function newChatRecord(chatId: number, now: Date): ChatRecord {
  return { chatId, notifications: { orders: true, broadcasts: true }, active: true, updatedAt: now.toISOString() };
}
