import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { webBundle } from "../../platform/http/web-bundle.js";
import type { Logger } from "pino";
import { escapeHtml } from "../../bot/helpers/html.js";
import { contentLengthLimit } from "../../platform/http/body-limit.js";
import type { Translations } from "../../bot/i18n.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { NETWORKS, type TronNetwork } from "../../shared/tron/network.js";
import type { AcceptOutcome, SignedTransferAcceptor } from "./accept-signed.js";
import { isTokenShaped, type SendIntent, type SendIntents } from "./send-intent.js";
import { signingLink, usdtText } from "./send-texts.js";
import { visibleText } from "../../bot/helpers/visible-text.js";

/** Source of the page's script and style, bundled once per process with esbuild. */
const WEB_DIR = fileURLToPath(new URL("../../../web/sign/", import.meta.url));
/** A signed USDT transfer is about 600 bytes of JSON; anything near this is not one. */
const MAX_BODY_BYTES = 16_384;

/**
 * Scripts and styles from this origin only; `connect-src` also allows https because some wallets' browsers
 * run the injected tronWeb inside the page, where its calls to the wallet's own node count as the page's.
 * The link carries its token: no referrer leaves the page, and nothing of it is cached.
 */
const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/** The page's words, in the intent's language; `{name}` marks what the script fills in. */
const PAGE_TEXTS = {
  "sign-page-sign": {},
  "sign-page-connect": {},
  "sign-page-connecting": {},
  "sign-page-checking": {},
  "sign-page-building": {},
  "sign-page-signing": {},
  "sign-page-sending": {},
  "sign-page-no-wallet": {},
  "sign-page-accounts-refused": {},
  "sign-page-wrong-network": { found: "{found}", expected: "{expected}" },
  "sign-page-low-usdt": { balance: "{balance}", amount: "{amount}" },
  "sign-page-low-bandwidth": {},
  "sign-page-energy": { energy: "{energy}" },
  "sign-page-declined": {},
  "sign-page-failed": { reason: "{reason}" },
} as const;

export interface SigningPageDeps {
  intents: SendIntents;
  acceptor: SignedTransferAcceptor;
  i18n: Translations;
  network: TronNetwork;
  /** The link itself, for the page's QR code (a wallet on another device scans it). */
  publicUrl: string;
  now: () => number;
  logger: Logger;
}

export function signingPageRoutes(deps: SigningPageDeps): (app: Hono) => void {
  const log = deps.logger.child({ component: "signing-page" });
  const assets = webBundle(WEB_DIR);

  const t = (locale: string, key: string, vars: Record<string, string> = {}) => deps.i18n.t(locale, key, vars);

  async function page(intent: SendIntent, token: string): Promise<string> {
    const locale = intent.locale;
    const { default: QRCode } = await import("qrcode");
    const link = signingLink(deps.publicUrl, token);
    const qr = await QRCode.toDataURL(link, { margin: 2, width: 440, errorCorrectionLevel: "M" });
    const config = {
      to: intent.to,
      amountAtomic: intent.amountAtomic,
      amountText: usdtText(intent.amountAtomic, locale),
      usdtContract: intent.usdtContract,
      network: deps.network.name,
      genesisBlockId: deps.network.genesisBlockId,
      networks: Object.fromEntries(Object.values(NETWORKS).map((n) => [n.genesisBlockId, n.name])),
      text: Object.fromEntries(Object.entries(PAGE_TEXTS).map(([key, vars]) => [key, t(locale, key, vars)])),
    };
    // `<` escaped: the JSON cannot close its script element, whatever it holds.
    const json = JSON.stringify(config).replace(/</g, "\\u003c");
    const fee = t(locale, "sign-page-fee-value", {
      holderTrx: formatTrx(BigInt(intent.holderFeeSun ?? intent.feeSun), locale),
      firstTimeTrx: formatTrx(BigInt(intent.feeSun), locale),
    });
    const e = escapeHtml;
    return `<!doctype html>
<html lang="${e(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(t(locale, "sign-page-title"))}</title>
<link rel="stylesheet" href="/sign/app.css">
</head>
<body>
<main>
<h1>${e(t(locale, "sign-page-title"))}</h1>
<dl class="card">
<div class="row"><dt>${e(t(locale, "sign-page-amount"))}</dt><dd class="amount">${e(usdtText(intent.amountAtomic, locale))} USDT</dd></div>
<div class="row"><dt>${e(t(locale, "sign-page-to"))}</dt><dd>${intent.label === undefined ? "" : `<span class="label">${e(intent.label)}</span>`}<span class="mono" id="to">${e(intent.to)}</span></dd></div>
<div class="row"><dt>${e(t(locale, "sign-page-from"))}</dt><dd class="mono" id="from">—</dd></div>
<div class="row"><dt>${e(t(locale, "sign-page-fee"))}</dt><dd>${e(fee)}</dd></div>
<div class="row"><dt>${e(t(locale, "sign-page-network"))}</dt><dd>${e(t(locale, `sign-page-network-${deps.network.name}`))}</dd></div>
</dl>
<button id="sign" type="button" hidden>${e(t(locale, "sign-page-sign"))}</button>
<p id="status" class="status" role="status" aria-live="polite"></p>
<ul id="notes"></ul>
<section id="no-wallet" hidden>
<p>${e(t(locale, "sign-page-no-wallet-how"))}</p>
<img alt="QR" src="${qr}">
<p class="mono">${e(link)}</p>
</section>
</main>
<script type="application/json" id="page-config">${json}</script>
<script src="/sign/app.js"></script>
</body>
</html>`;
  }

  function deadPage(locale: string): string {
    return `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t(locale, "sign-page-title"))}</title><link rel="stylesheet" href="/sign/app.css"></head><body><main><h1>${escapeHtml(t(locale, "sign-page-title"))}</h1><p class="status error">${escapeHtml(t(locale, "sign-page-link-dead"))}</p></main></body></html>`;
  }

  const outcomeText = (locale: string, outcome: AcceptOutcome): string => {
    switch (outcome.status) {
      case "sent":
        return t(locale, "sign-page-done");
      case "already_sent":
        return t(locale, "sign-page-already-sent");
      case "mismatch":
        return t(locale, "sign-page-mismatch");
      case "dead":
        return t(locale, "sign-page-link-dead");
      case "invalid":
        return t(locale, "sign-page-failed", { reason: outcome.reason });
      case "refused":
        return t(locale, "sign-page-refused", { reason: visibleText(outcome.message) });
    }
  };

  return (app) => {
    app.get("/sign/app.js", async (c) =>
      c.body((await assets()).js, 200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        "X-Content-Type-Options": "nosniff",
      }),
    );
    app.get("/sign/app.css", async (c) =>
      c.body((await assets()).css, 200, {
        "Content-Type": "text/css; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        "X-Content-Type-Options": "nosniff",
      }),
    );
    app.get("/sign/:token", async (c) => {
      const token = c.req.param("token");
      const found = isTokenShaped(token) ? await deps.intents.lookup(token, deps.now()) : ({ ok: false, reason: "unknown" } as const);
      if (!found.ok) return c.html(deadPage("en"), 410, PAGE_HEADERS);
      return c.html(await page(found.intent, token), 200, PAGE_HEADERS);
    });
    // A signed USDT transfer is a few hundred bytes: a larger body is refused before it is read.
    const bodyLimit = contentLengthLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ status: "invalid", message: t("en", "sign-page-failed", { reason: "too large" }) }, 413, PAGE_HEADERS),
    });
    app.post("/sign/:token", bodyLimit, async (c) => {
      const { outcome, locale } = await deps.acceptor.accept(c.req.param("token"), await c.req.text());
      log.info({ status: outcome.status }, "signed transfer handed in");
      const code = outcome.status === "sent" || outcome.status === "already_sent" ? 200 : outcome.status === "dead" ? 410 : 422;
      return c.json({ ...outcome, message: outcomeText(locale, outcome) }, code, PAGE_HEADERS);
    });
  };
}
