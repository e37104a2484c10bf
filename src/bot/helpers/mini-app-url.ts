/**
 * The address of one of the Mini App's screens, for the bot's `web_app` buttons: only with an https
 * PUBLIC_URL, since Telegram opens nothing else (and then the app is offered as the menu button too).
 * The screen goes in the query: Telegram appends its launch data as the URL's hash and keeps the query.
 */
export function miniAppScreenUrl(publicUrl: string | undefined, screen: string, params: Record<string, string> = {}): string | undefined {
  const base = publicUrl?.replace(/\/+$/, "");
  if (base === undefined || !base.startsWith("https://")) return undefined;
  return `${base}/app?${new URLSearchParams({ screen, ...params }).toString()}`;
}
