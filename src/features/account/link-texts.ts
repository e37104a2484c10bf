/** What a key check (`shared/chats/check-key.ts`) and a stored link mean to the user. */
import type { I18nFlavor } from "../../bot/i18n.js";
import type { KeyCheck } from "../../shared/chats/check-key.js";
import { ServiceError } from "../../platform/service/errors.js";
import type { BotDeps } from "../../bot/deps.js";
import { sentKeyErrorKey, sentKeyErrorText } from "../../bot/helpers/error-text.js";
import { formatTrx } from "../../bot/helpers/format.js";
import { code, translate, type TextVars } from "../../bot/helpers/html.js";
import type { ComposedText } from "../../bot/helpers/service-links.js";

type Translator = Pick<I18nFlavor, "t">;

/** Text for a check that stored nothing. */
export function notStoredText(ctx: Translator, check: Extract<KeyCheck, { kind: "unavailable" | "refused" }>, locale: string): ComposedText {
  if (check.kind === "unavailable") return { text: translate(ctx, "link-unavailable"), keys: ["link-unavailable"] };
  const error = ServiceError.from(check.error);
  return { text: `${sentKeyErrorText(ctx, error, locale)}\n\n${translate(ctx, "link-not-stored")}`, keys: [sentKeyErrorKey(error), "link-not-stored"] };
}

/** Text after a successful link: balance or the missing wallet, the callback URL, the secret hint. */
export function linkedText(
  ctx: Translator,
  deps: Pick<BotDeps, "config">,
  result: {
    check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }>;
    routeId: string | undefined;
    hasSecret: boolean;
    relinked: boolean;
    /** Another chat already linked this account: the callback URL is the one it has (an API key holds one). */
    sharedRoute?: boolean;
  },
  locale: string,
): ComposedText {
  const parts: [string, TextVars?][] = [[result.relinked ? "link-replaced" : "link-success"]];
  if (result.check.kind === "ok") parts.push(["link-balance", { availableTrx: formatTrx(result.check.availableSun, locale) }]);
  else parts.push(["link-no-wallet"]);
  if (deps.config.publicUrl && result.routeId) {
    parts.push([result.sharedRoute ? "link-callback-url-shared" : "link-callback-url", { url: code(`${deps.config.publicUrl}/hooks/${result.routeId}`) }]);
  }
  if (result.sharedRoute) parts.push(["link-account-shared"]);
  parts.push([result.hasSecret ? "link-secret-stored" : "link-secret-missing"]);
  return { text: parts.map(([key, vars]) => translate(ctx, key, vars)).join("\n\n"), keys: parts.map(([key]) => key) };
}
