/**
 * The zone offer's buttons name the message they sit under (and a notice's card), so whichever of them is
 * pressed (a one-tap zone, the menu, one of the menu's zones) the message can be drawn again; every button
 * fits Telegram's 64 bytes, and forged data is refused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMON_TIME_ZONES, packZoneOffer, unpackZoneOffer, type ZoneOfferTarget } from "../../../src/bot/callback-data/time-zone.js";

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);
const target: fc.Arbitrary<ZoneOfferTarget> = fc.oneof(
  fc.record(
    { on: fc.constant("notice" as const), orderId: hexId, placedElsewhere: fc.boolean(), cardId: fc.integer({ min: 1, max: 2 ** 31 - 1 }) },
    { requiredKeys: ["on", "orderId", "placedElsewhere"] },
  ),
  fc.record({ on: fc.constant("reminder" as const), orderId: hexId }),
  fc.record({ on: fc.constant("orders" as const), filter: fc.constantFrom("a", "o", "b", "f"), page: fc.integer({ min: 0, max: 9999 }) }),
);

describe("the zone offer's button data", () => {
  it("reads back what it packed: the preset or the menu, the message, and whether the menu drew it", () => {
    fc.assert(
      fc.property(target, fc.integer({ min: 0, max: COMMON_TIME_ZONES.length - 1 }), fc.boolean(), (t, n, fromMenu) => {
        const data = packZoneOffer(n, t, fromMenu);
        expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
        expect(unpackZoneOffer(data)).toEqual({ pick: COMMON_TIME_ZONES[n], target: t, fromMenu });
        const menu = packZoneOffer("menu", t);
        expect(Buffer.byteLength(menu)).toBeLessThanOrEqual(64);
        expect(unpackZoneOffer(menu)).toEqual({ pick: "menu", target: t, fromMenu: false });
      }),
    );
  });

  it("refuses data no offer sends", () => {
    const order = "0123456789abcdef01234567";
    for (const forged of [
      "tzs:99:n:" + order,
      "tzs:m:N:" + order, // the menu does not open a menu
      "tzs:3:x:" + order,
      "tzs:3:n:xyz",
      `tzs:3:r:${order}.12`, // a reminder names no card
      `tzs:3:n:${order}.`,
      "tzs:3:l:a",
    ]) {
      expect(unpackZoneOffer(forged), forged).toBeUndefined();
    }
  });
});
