/**
 * Telegram Mini App launch data signed as Telegram signs it (src/mini-app/init-data.ts has the rule),
 * for tests and the sandbox: the `tgWebAppData` string and the launch URL with its hash.
 */
import { createHmac } from "node:crypto";

export interface LaunchUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** Telegram's dark theme, as Telegram Desktop sends it. */
export const DARK_THEME = {
  bg_color: "#17212b",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  link_color: "#6ab3f3",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  secondary_bg_color: "#232e3c",
  header_bg_color: "#17212b",
  accent_text_color: "#6ab2f2",
  section_bg_color: "#17212b",
  section_header_text_color: "#6ab3f3",
  subtitle_text_color: "#708499",
  destructive_text_color: "#ec3942",
} as const;

/** Telegram's light theme. */
export const LIGHT_THEME = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#999999",
  link_color: "#2481cc",
  button_color: "#2481cc",
  button_text_color: "#ffffff",
  secondary_bg_color: "#efeff3",
  section_bg_color: "#ffffff",
  destructive_text_color: "#ff3b30",
} as const;

/**
 * Fields in Telegram's own order and encoding (the user JSON with `\/` escaped, as Telegram sends it), the
 * `hash` over all the others; `botToken` of another bot gives a forged hash.
 */
export function signInitData(
  botToken: string,
  options: { user?: LaunchUser; authDateS: number | undefined; queryId?: string; extra?: Record<string, string> },
): string {
  const fields: [string, string][] = [];
  if (options.queryId !== undefined) fields.push(["query_id", options.queryId]);
  if (options.user !== undefined) fields.push(["user", JSON.stringify({ allows_write_to_pm: true, ...options.user }).replace(/\//g, "\\/")]);
  // Telegram always sends auth_date; undefined signs data without it, to test that it is required.
  if (options.authDateS !== undefined) fields.push(["auth_date", String(options.authDateS)]);
  for (const [key, value] of Object.entries(options.extra ?? {})) fields.push([key, value]);
  const check = fields
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const secret = createHmac("sha256", "WebAppData").update(botToken).digest();
  const hash = createHmac("sha256", secret).update(check).digest("hex");
  const all: [string, string][] = [...fields, ["hash", hash]];
  return all.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join("&");
}

/** The URL Telegram opens: the app's address with the launch parameters in its hash. */
export function launchUrl(appUrl: string, initData: string, theme: Record<string, string> = DARK_THEME, platform = "tdesktop"): string {
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: "8.0",
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(theme),
  });
  return `${appUrl}#${hash.toString()}`;
}
