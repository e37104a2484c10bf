/** What a key check (`core/chats/check-key.ts`) and a stored link mean to the user. */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { KeyCheck } from "../../core/chats/check-key.js";
import { ServiceError } from "../../core/service/errors.js";
import type { BotDeps } from "../deps.js";
import { sentKeyErrorText } from "./error-text.js";
import { formatTrx } from "./format.js";
import { code, translate } from "./html.js";

type Translator = Pick<I18nFlavor, "t">;

/** Text for a check that stored nothing. */
export function notStoredText(ctx: Translator, check: Extract<KeyCheck, { kind: "unavailable" | "refused" }>, locale: string): string {
  if (check.kind === "unavailable") return translate(ctx, "link-unavailable");
  return `${sentKeyErrorText(ctx, ServiceError.from(check.error), locale)}\n\n${translate(ctx, "link-not-stored")}`;
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
