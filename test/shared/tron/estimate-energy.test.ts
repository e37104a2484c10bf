import { describe, expect, it } from "vitest";
import { estimateEnergy, estimateResource, RESOURCE_ESTIMATES } from "../../../src/shared/tron/index.js";

describe("estimateEnergy", () => {
  it("quotes about 64,000 energy for a token transfer to an existing holder", () => {
    expect(estimateEnergy("usdt", true)).toBe(64_000);
  });

  it("quotes about 130,000 for a first-time recipient and for an unknown one", () => {
    expect(estimateEnergy("usdt", false)).toBe(130_000);
    expect(estimateEnergy("usdt", undefined)).toBe(130_000);
  });

  it("quotes documented constants for the other kinds", () => {
    expect(estimateEnergy("trx", undefined)).toBe(RESOURCE_ESTIMATES.trxTransferBandwidth);
    expect(estimateEnergy("contract", true)).toBe(RESOURCE_ESTIMATES.otherContractEnergy);
  });

  it("names BANDWIDTH for a TRX transfer and ENERGY for contract calls", () => {
    expect(estimateResource("trx", undefined)).toEqual({ resource: "BANDWIDTH", amount: 345 });
    expect(estimateResource("usdt", true)).toEqual({ resource: "ENERGY", amount: 64_000 });
    expect(estimateResource("contract", undefined).resource).toBe("ENERGY");
  });
});
