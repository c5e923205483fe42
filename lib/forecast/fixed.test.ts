import { describe, expect, it } from "vitest";
import { fromUnits, timesRate, toUnits } from "./fixed";

describe("fixed-point units", () => {
  it("round-trips and sums exactly", () => {
    expect(fromUnits(toUnits("0.1") + toUnits("0.2"))).toBe("0.3");
    expect(fromUnits(toUnits("-1250.50"))).toBe("-1250.5");
    expect(fromUnits(toUnits("-0.004"), 2)).toBe("0.00");
    expect(fromUnits(toUnits("-0.005"), 2)).toBe("-0.01");
    expect(fromUnits(toUnits("2.345"), 2)).toBe("2.35");
    expect(fromUnits(toUnits("7"), 2)).toBe("7.00");
  });
  it("converts at a rate, rounding half away from zero", () => {
    expect(fromUnits(timesRate(toUnits("100"), "0.9"))).toBe("90");
    expect(fromUnits(timesRate(toUnits("-0.000001"), "0.5"))).toBe("-0.000001");
  });
  it("refuses what is not a plain decimal", () => {
    expect(() => toUnits("1e3")).toThrow();
    expect(() => toUnits("1.0000001")).toThrow();
    expect(() => toUnits("")).toThrow();
  });
});
