import { Composer } from "grammy";
import { formatUnits } from "../../shared/money.js";
import type { SystemSnapshot } from "../../platform/service/schemas.js";
import type { BotContext } from "../../bot/context.js";
import type { BotFeature } from "../../bot/feature-routes.js";
import type { BotDeps } from "../../bot/deps.js";
import { formatDuration } from "../../bot/helpers/duration.js";
import { clockText } from "../../bot/helpers/expiry-text.js";
import { formatAll, formatInteger } from "../../bot/helpers/format.js";
import { code, html, HTML, translate } from "../../bot/helpers/html.js";
import { textLinksMarkup } from "../../bot/keyboards/links.js";
import { logHandle } from "../../bot/helpers/logging.js";

/** The snapshot's moment as every time the bot shows ("14:05 UTC+3" in the chat's zone); a text that is no date stays as the service wrote it. */
function updatedAtText(iso: string, nowMs: number, locale: string, timeZone: string): string {
  const atMs = Date.parse(iso);
  return Number.isNaN(atMs) ? iso : clockText(atMs, nowMs, locale, timeZone);
}

function systemText(ctx: BotContext, s: SystemSnapshot, locale: string, timeZone: string, nowMs: number): string {
  const pools = s.internalPools;
  const reg = s.provider.registration;
  const energy = reg.defaultEnergyConfig;
  const parts = [
    translate(ctx, "system-title", { updatedAt: updatedAtText(s.updatedAt, nowMs, locale, timeZone) }),
    translate(ctx, "system-pools", { activeCount: pools.activeCount, poolCount: pools.poolCount, inactiveCount: pools.inactiveCount }),
    translate(ctx, "system-energy", {
      matchable: formatInteger(pools.totalMatchableUnits, locale),
      reserved: formatInteger(pools.totalReservedUnits, locale),
      available: formatInteger(pools.totalAvailableUnits, locale),
    }),
    translate(ctx, "system-provider", {
      address: code(reg.grantActivePermissionTo),
      // TRON's own contract names, copied into a wallet's permission settings as they are.
      permissions: html(
        formatAll(
          reg.requiredContractPermissions.map((name) => code(name).value),
          locale,
        ),
      ),
      registerPath: code(reg.registerPath),
    }),
    translate(ctx, "system-provider-terms", {
      paymentHours: reg.defaultPaymentFrequencyHours,
      paymentHoursMin: reg.paymentFrequencyHoursRange.min,
      paymentHoursMax: reg.paymentFrequencyHoursRange.max,
      minPriceSun: formatInteger(energy.minPrice, locale),
      profitSharePercent: formatUnits(BigInt(energy.profitShareBps), 2),
      minDelegateAmount: formatInteger(energy.minDelegateAmount, locale),
      maintainBuffer: formatInteger(energy.maintainBuffer, locale),
      minDuration: formatDuration(ctx, energy.minDurationSec),
      maxDuration: formatDuration(ctx, energy.maxDurationSec),
    }),
  ];
  if (reg.instructions.trim()) parts.push(translate(ctx, "system-instructions", { instructions: reg.instructions.trim() }));
  return parts.join("\n\n");
}

/** /system (private and groups): pools and the provider snapshot in plain words. */
export function createSystemFeature(deps: BotDeps): BotFeature {
  const composer = new Composer<BotContext>();
  composer.command("system", logHandle("command-system"), async (ctx) => {
    const snapshot = await deps.service.getSystem();
    const { zone } = await deps.flows.limits.zoneOf(ctx.chat.id);
    const text = systemText(ctx, snapshot, await ctx.i18n.getLocale(), zone, deps.flows.now());
    // The text always explains the provider registration, which is done in the dashboard.
    await ctx.reply(text, { ...HTML, ...textLinksMarkup(ctx, "system-provider") });
  });
  return { composer, routes: { commands: ["system"] } };
}
