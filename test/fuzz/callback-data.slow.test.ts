import fc from "fast-check";
import { describe, it } from "vitest";
import { draftData } from "../../src/bot/callback-data/broadcast.js";
import { cancelData } from "../../src/bot/callback-data/cancel.js";
import { MAX_CALLBACK_DATA_BYTES, type CallbackData } from "../../src/bot/callback-data/create-callback-data.js";
import { languageData } from "../../src/bot/callback-data/language.js";
import { linkData } from "../../src/bot/callback-data/link.js";
import { orderStepData, quoteData, rentAgainData } from "../../src/bot/callback-data/order.js";
import { historyPageData, trackRefreshData } from "../../src/bot/callback-data/orders.js";
import { settingsData } from "../../src/bot/callback-data/settings.js";
import { unlinkData } from "../../src/bot/callback-data/unlink.js";
import { webhookData } from "../../src/bot/callback-data/webhook.js";
import { fuzz, fuzzTimeoutMs, binaryString } from "../support/fuzz.js";

/** Every button family the bot packs, with its field count. */
const FAMILIES: readonly [CallbackData<string>, number][] = [
  [draftData, 2],
  [cancelData, 2],
  [languageData, 1],
  [linkData, 2],
  [orderStepData, 3],
  [quoteData, 2],
  [rentAgainData, 1],
  [historyPageData, 1],
  [trackRefreshData, 2],
  [settingsData, 2],
  [unlinkData, 1],
  [webhookData, 1],
];
const FIELDS: readonly string[][] = FAMILIES.map(([family, n]) => {
  // The field names are not exported; unpack of a well-shaped string reveals them in order.
  const sample = family.unpack([family.prefix, ...Array.from({ length: n }, (_, i) => String(i))].join(":"))!;
  return Object.keys(sample);
});
const family = fc.nat({ max: FAMILIES.length - 1 });
const value = fc.oneof(fc.string({ maxLength: 12 }), binaryString({ maxLength: 8 }), fc.stringMatching(/^[0-9a-f]{16,24}$/), fc.integer());

describe("callback data (pack/unpack, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("round-trips every packable value of every family, and packing refuses ':' and data over 64 bytes", () => {
    fc.assert(
      fc.property(family, fc.array(value, { minLength: 3, maxLength: 3 }), (f, values) => {
        const [data] = FAMILIES[f]!;
        const names = FIELDS[f]!;
        const record = Object.fromEntries(names.map((n, i) => [n, values[i]!]));
        const text = [data.prefix, ...names.map((n) => String(record[n]))].join(":");
        const packable = names.every((n) => !String(record[n]).includes(":")) && Buffer.byteLength(text) <= MAX_CALLBACK_DATA_BYTES;
        let packed: string;
        try {
          packed = data.pack(record);
        } catch {
          return !packable;
        }
        const back = data.unpack(packed);
        return packable && packed === text && data.filter.test(packed) && back !== undefined && names.every((n) => back[n] === String(record[n]));
      }),
      fuzz("callback data: round trip"),
    );
  });

  it("unpacks a forged string only into what packs back to the same string, and never as another family", () => {
    const forged = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc
        .tuple(fc.constantFrom(...FAMILIES.map(([d]) => d.prefix), "Q", "q ", "qq", "os-", ""), fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }))
        .map(([p, parts]) => [p, ...parts].join(":")),
      binaryString({ minLength: 60, maxLength: 300 }),
    );
    fc.assert(
      fc.property(forged, (s) => {
        const owners = FAMILIES.filter(([d]) => d.unpack(s) !== undefined);
        if (owners.length > 1) return false;
        const [owner] = owners;
        if (owner === undefined) return true;
        const [d] = owner;
        const back = d.unpack(s)!;
        if (!d.filter.test(s)) return false;
        // Telegram delivers at most 64 bytes; anything longer is forged and must never pack.
        if (Buffer.byteLength(s) > MAX_CALLBACK_DATA_BYTES) return true;
        return d.pack(back) === s;
      }),
      fuzz("callback data: forged strings"),
    );
  });
});
