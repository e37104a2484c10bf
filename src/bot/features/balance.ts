import { Composer, InputFile } from "grammy";
import QRCode from "qrcode";
import { ServiceError } from "../../core/service/errors.js";
import type { BotContext } from "../context.js";
import type { BotDeps } from "../deps.js";
import { formatTrx } from "../helpers/format.js";
import { code, HTML, translate } from "../helpers/html.js";
import { logHandle } from "../helpers/logging.js";
import { requireApiKey } from "../helpers/require-key.js";

/** Minimum deposit that is credited automatically (service-api.md section 8). */
const MIN_DEPOSIT_SUN = 10_000_000;

/**
 * /balance: exact TRX, the deposit address in full (tap to copy) and its QR
 * code; a missing address or wallet is explained. Other failures (401 ->
 * re-link, 503 ...) go to the error boundary, which names them.
 */
export function createBalanceFeature(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const feature = composer.chatType("private");

  feature.command("balance", logHandle("command-balance"), async (ctx) => {
    const apiKey = await requireApiKey(ctx, deps);
    if (apiKey === undefined) return;
    await ctx.replyWithChatAction("typing");
    const locale = await ctx.i18n.getLocale();
    let balance;
    try {
      balance = await deps.service.getBalance(apiKey);
    } catch (error) {
      if (ServiceError.isInstance(error) && error.code === "not_found") {
        await ctx.reply(translate(ctx, "balance-no-wallet"), HTML);
        return;
      }
      throw error;
    }
    const lines = [translate(ctx, "balance-available", { availableTrx: formatTrx(balance.availableSun, locale) })];
    const address = balance.depositAddress;
    if (address === null) {
      lines.push(translate(ctx, "balance-no-address"));
      await ctx.reply(lines.join("\n\n"), HTML);
      return;
    }
    lines.push(translate(ctx, "balance-deposit", { address: code(address), minDepositTrx: formatTrx(MIN_DEPOSIT_SUN, locale) }));
    await ctx.reply(lines.join("\n\n"), HTML);
    const png = await QRCode.toBuffer(address, { type: "png", margin: 2, width: 320, errorCorrectionLevel: "M" });
    await ctx.replyWithPhoto(new InputFile(png, "deposit-address.png"), {
      // The address itself is in the text above (one tap copies it); the caption only names the picture.
      caption: translate(ctx, "balance-qr-caption"),
      parse_mode: "HTML",
    });
  });

  return composer;
}
