/** What Telegram shows of an HTML text (a callback's `message.text`): tags dropped, entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
