import { describe, expect, it } from "vitest";
import { fromMillionths, fromUnits, timesRate, toUnits } from "./fixed";

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
  it("fromMillionths writes a number of millionths as fromUnits writes the bigint", () => {
    let seed = 3;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const values = [0, -0, 1, -1, 10, 1_000_000, -1_000_000, 1_250_500_000, -1_250_500_000, 999_999];
    values.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 123_456_789_000_001);
    for (let i = 0; i < 5000; i++) {
      const v = Math.round((rand() - 0.5) * 10 ** Math.floor(rand() * 16));
      values.push(i % 3 === 0 ? v - (v % 10_000) : v);
    }
    for (const v of values) expect(fromMillionths(v)).toBe(fromUnits(BigInt(v)));
    expect(() => fromMillionths(0.5)).toThrow(RangeError);
    expect(() => fromMillionths(2 ** 53)).toThrow(RangeError);
  });
});
