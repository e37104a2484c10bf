/** What a key check (`core/chats/check-key.ts`) and a stored link mean to the user. */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { KeyCheck } from "../../core/chats/check-key.js";
import { ServiceError } from "../../core/service/errors.js";
import type { BotDeps } from "../deps.js";
import { serviceErrorText } from "./error-text.js";
import { formatTrx } from "./format.js";
import { code, translate } from "./html.js";

type Translator = Pick<I18nFlavor, "t">;

const LINK_REFUSALS: Readonly<Record<string, string>> = { "api_key.invalid": "link-key-invalid", "api_key.revoked": "link-key-revoked" };

/** Text for a check that stored nothing. */
export function notStoredText(ctx: Translator, check: Extract<KeyCheck, { kind: "unavailable" | "refused" }>, locale: string): string {
  if (check.kind === "unavailable") return translate(ctx, "link-unavailable");
  // The key was just sent, not one this chat holds: the generic texts ("the key of this chat") would misname it.
  const own = LINK_REFUSALS[check.error.code];
  if (own) return `${translate(ctx, own)}\n\n${translate(ctx, "link-not-stored")}`;
  return `${serviceErrorText(ctx, new ServiceError(check.error), locale)}\n\n${translate(ctx, "link-not-stored")}`;
}

/** Text after a successful link: balance or the missing wallet, the callback URL, the secret hint. */
export function linkedText(
  ctx: Translator,
  deps: Pick<BotDeps, "config">,
  result: { check: Extract<KeyCheck, { kind: "ok" | "no-wallet" }>; routeId: string | undefined; hasSecret: boolean; relinked: boolean },
  locale: string,
): string {
  const parts = [translate(ctx, result.relinked ? "link-replaced" : "link-success")];
  if (result.check.kind === "ok") parts.push(translate(ctx, "link-balance", { availableTrx: formatTrx(result.check.availableSun, locale) }));
  else parts.push(translate(ctx, "link-no-wallet"));
  if (deps.config.publicUrl && result.routeId) {
    parts.push(translate(ctx, "link-callback-url", { url: code(`${deps.config.publicUrl}/hooks/${result.routeId}`) }));
  }
  parts.push(translate(ctx, result.hasSecret ? "link-secret-stored" : "link-secret-missing"));
  return parts.join("\n\n");
}
