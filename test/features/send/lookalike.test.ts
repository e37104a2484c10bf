import { describe, expect, it } from "vitest";
import { lookalikeOf } from "../../../src/features/send/lookalike.js";

describe("address poisoning guard", () => {
  const known = ["TQCq78eKWLd98P5Eu155knhkacGPAhS9pu", "TDjASf2HkwgrRPSzV9jt4oGNBTcfGaHfF5"];

  it("flags a recipient with the first and last four characters of a known address that is not that address", () => {
    expect(lookalikeOf("TQCqXXXXXXXXXXXXXXXXXXXXXXXXXXS9pu", known)).toBe(known[0]);
  });

  it("does not flag the known address itself, nor one that differs at either end", () => {
    expect(lookalikeOf(known[0]!, known)).toBeUndefined();
    expect(lookalikeOf("TQCrXXXXXXXXXXXXXXXXXXXXXXXXXXS9pu", known)).toBeUndefined();
    expect(lookalikeOf("TQCqXXXXXXXXXXXXXXXXXXXXXXXXXXS9pv", known)).toBeUndefined();
  });
});
