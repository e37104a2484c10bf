import { describe, expect, it } from "vitest";
import { fromHexAddress, isValidTronAddress, toHexAddress } from "../../../src/shared/tron/index.js";
import { TEST_KEYS, USDT_MAINNET } from "../../../testkit/tron-sign.js";

const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

describe("isValidTronAddress", () => {
  it("accepts base58 addresses with a correct checksum", () => {
    expect(isValidTronAddress(USDT_MAINNET)).toBe(true);
    for (const k of Object.values(TEST_KEYS)) expect(isValidTronAddress(k.address)).toBe(true);
  });

  it("refuses a base58 address whose checksum is wrong", () => {
    const a = TEST_KEYS.alice.address;
    const bad = `${a.slice(0, -1)}${a.endsWith("z") ? "y" : "z"}`;
    expect(isValidTronAddress(bad)).toBe(false);
  });

  it("refuses hex, short, long, non-base58 and non-string input without throwing", () => {
    for (const s of [USDT_HEX, `0x${USDT_HEX.slice(2)}`, "", "T", `${USDT_MAINNET}1`, "T0OIl000000000000000000000000000000", "not-an-address"]) {
      expect(isValidTronAddress(s)).toBe(false);
    }
    expect(isValidTronAddress(42 as unknown as string)).toBe(false);
    expect(isValidTronAddress(null as unknown as string)).toBe(false);
  });
});

describe("toHexAddress / fromHexAddress", () => {
  it("converts base58 to lower-case 41-prefixed hex and back", () => {
    expect(toHexAddress(USDT_MAINNET)).toBe(USDT_HEX);
    expect(fromHexAddress(USDT_HEX)).toBe(USDT_MAINNET);
  });

  it("accepts 0x-prefixed and upper-case hex", () => {
    expect(fromHexAddress(`0x${USDT_HEX.slice(2).toUpperCase()}`)).toBe(USDT_MAINNET);
    expect(toHexAddress(USDT_HEX.toUpperCase())).toBe(USDT_HEX);
  });

  it("passes a valid base58 address through fromHexAddress unchanged", () => {
    expect(fromHexAddress(USDT_MAINNET)).toBe(USDT_MAINNET);
  });

  it("returns null for garbage instead of throwing", () => {
    for (const s of ["", "xyz", "41abc", `${USDT_MAINNET.slice(0, -1)}z`, "42" + "00".repeat(20)]) {
      expect(toHexAddress(s)).toBeNull();
      expect(fromHexAddress(s)).toBeNull();
    }
  });
});
