import { InputFile } from "grammy";

/**
 * A QR code of `text` as a PNG ready to send. qrcode (and pngjs under it, some 60 modules) is loaded
 * on the first one: most processes draw none for a long time.
 */
export async function qrPhoto(text: string, fileName: string): Promise<InputFile> {
  const { default: QRCode } = await import("qrcode");
  const png = await QRCode.toBuffer(text, { type: "png", margin: 2, width: 360, errorCorrectionLevel: "M" });
  return new InputFile(png, fileName);
}
