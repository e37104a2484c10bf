import { createCallbackData } from "./create-callback-data.js";

/** "Top up" under a quote (`o`, quoteId) or a refused broadcast (`b`, draftId). */
export const topUpData = createCallbackData("tu", ["kind", "refId"]);

/** `/start topup_<requiredSun>`: from an inline quote the balance cannot cover, into the private chat. */
const TOP_UP_LINK = /^topup_(\d{1,18})$/;

export function topUpDeepLink(requiredSun: bigint): string {
  return `topup_${requiredSun}`;
}

export function parseTopUpDeepLink(payload: string): bigint | undefined {
  const m = TOP_UP_LINK.exec(payload);
  return m ? BigInt(m[1]!) : undefined;
}

export function isTopUpDeepLink(payload: string): boolean {
  return TOP_UP_LINK.test(payload);
}
