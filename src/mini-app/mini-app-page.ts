import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { webBundle, type WebBundle } from "../platform/http/web-bundle.js";
import { escapeHtml } from "../bot/helpers/html.js";
import type { Translations } from "../bot/i18n.js";
import type { SupportedLocale } from "../config.js";
import { shellTexts } from "./mini-app-texts.js";

/** Source of the app's script and style, bundled once per process with esbuild. */
const WEB_DIR = fileURLToPath(new URL("../../web/app/", import.meta.url));

/**
 * Scripts, styles and calls to this origin only (the page loads nothing from Telegram or anyone else).
 * Telegram's apps open the page in a web view; Telegram Web frames it, so that origin (and only it) may.
 */
const APP_PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors https://web.telegram.org",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

const ASSET_HEADERS = { "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" };

export interface MiniAppPageDeps {
  i18n: Translations;
  defaultLocale: SupportedLocale;
}

/** The esbuild bundle of web/app, built at the first request and kept. */
function miniAppAssets(): () => Promise<WebBundle> {
  return webBundle(WEB_DIR);
}

/**
 * GET /app: a shell with no data in it. Navigations carry no header, and Telegram's launch data sits in the
 * URL's hash, which never reaches a server: the page reads it and asks the API, which checks it.
 */
export function miniAppPageRoutes(deps: MiniAppPageDeps): (app: Hono) => void {
  const assets = miniAppAssets();
  const config = { defaultLocale: deps.defaultLocale, shell: shellTexts(deps.i18n) };
  // `<` escaped: the JSON cannot close its script element, whatever it holds.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  const title = escapeHtml(deps.i18n.t(deps.defaultLocale, "mini-app-title"));
  const shell = `<!doctype html>
<html lang="${escapeHtml(deps.defaultLocale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="/app/app.css">
</head>
<body>
<header id="balance" class="balance" hidden></header>
<main id="screen" aria-live="polite"><p class="status" id="status"></p></main>
<script type="application/json" id="app-config">${json}</script>
<script src="/app/app.js"></script>
</body>
</html>`;

  return (app) => {
    app.get("/app", (c) => c.html(shell, 200, APP_PAGE_HEADERS));
    app.get("/app/", (c) => c.html(shell, 200, APP_PAGE_HEADERS));
    app.get("/app/app.js", async (c) => c.body((await assets()).js, 200, { ...ASSET_HEADERS, "Content-Type": "text/javascript; charset=utf-8" }));
    app.get("/app/app.css", async (c) => c.body((await assets()).css, 200, { ...ASSET_HEADERS, "Content-Type": "text/css; charset=utf-8" }));
  };
}
