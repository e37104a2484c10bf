import { describe, expect, it } from "vitest";
import { detectSecret } from "../../../src/shared/broadcasts/secret-detect.js";
import { TEST_KEYS } from "../../../testkit/tron-sign.js";

describe("detectSecret", () => {
  it("flags a bare 64-hex private key, with or without 0x or a few words around it", () => {
    expect(detectSecret(TEST_KEYS.alice.privateKey)).toBe("private_key");
    expect(detectSecret(`0x${TEST_KEYS.bob.privateKey.toUpperCase()}`)).toBe("private_key");
    expect(detectSecret(`my key is ${TEST_KEYS.bob.privateKey}`)).toBe("private_key");
  });

  it("flags 12 and 24 word BIP39-style mnemonics, numbered or not", () => {
    const twelve = "abandon ability able about above absent absorb abstract absurd abuse access accident";
    expect(detectSecret(twelve)).toBe("mnemonic");
    expect(
      detectSecret(
        twelve
          .split(" ")
          .map((w, i) => `${i + 1}. ${w}`)
          .join("\n"),
      ),
    ).toBe("mnemonic");
    expect(detectSecret(`${twelve} ${twelve}`.toUpperCase())).toBe("mnemonic");
  });

  it("leaves JSON transactions, addresses, order ids and ordinary sentences alone", () => {
    expect(detectSecret(`{"txID":"${TEST_KEYS.alice.privateKey}"}`)).toBeNull();
    expect(detectSecret(TEST_KEYS.alice.address)).toBeNull();
    expect(detectSecret("65a1f0c2b3d4e5f6a7b8c9d0")).toBeNull();
    expect(detectSecret("please send one hundred thousand energy to my main wallet today thanks")).toBeNull();
    expect(detectSecret("abandon ability able")).toBeNull();
  });
});
