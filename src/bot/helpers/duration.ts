import type { I18nFlavor } from "../i18n.js";

/** Duration in seconds as localized text: "1 h", "15 min", "90 s". */
export function formatDuration(ctx: Pick<I18nFlavor, "t">, seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return ctx.t("duration-hours", { count: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return ctx.t("duration-minutes", { count: seconds / 60 });
  return ctx.t("duration-seconds", { count: seconds });
}
