import type { ChatRepository } from "./chat-repository.js";

/** The titles the chats were last seen with; a chat without one is left out (its id stands in where shown). */
export async function chatTitles(chats: Pick<ChatRepository, "get">, chatIds: Iterable<number>): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const chatId of new Set(chatIds)) {
    const title = (await chats.get(chatId))?.title;
    if (title !== undefined) titles.set(chatId, title);
  }
  return titles;
}
