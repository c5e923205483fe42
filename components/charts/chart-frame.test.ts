import { describe, expect, it } from "vitest";
import { compactFractionDigits, compactTick } from "./chart-frame";

describe("compact axis ticks", () => {
  it("gives neighbouring ticks of a narrow range distinct labels", () => {
    // An intraday balance moving between 5.60M and 5.72M: ticks every ~24k need two digits.
    const values = [5_600_000, 5_650_000, 5_720_000];
    expect(compactFractionDigits(values)).toBe(2);
    const tick = compactTick("en-GB", values);
    const labels = [5_600_000, 5_625_000, 5_650_000, 5_675_000, 5_700_000].map(tick);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels[0]).toBe("5.6m");
    expect(labels[1]).toBe("5.63m");
  });

  it("keeps one digit for a wide range, small numbers and flat or empty series", () => {
    expect(compactFractionDigits([0, 10_000_000])).toBe(1);
    expect(compactFractionDigits([12, 640])).toBe(1);
    expect(compactFractionDigits([5_000_000, 5_000_000])).toBe(1);
    expect(compactFractionDigits([])).toBe(1);
    expect(compactFractionDigits([Number.NaN])).toBe(1);
  });

  it("caps the digits at three for an almost flat series", () => {
    expect(compactFractionDigits([5_000_000, 5_000_010])).toBe(3);
  });

  it("follows the viewer's locale", () => {
    expect(compactTick("de-DE", [1_000_000, 1_100_000])(1_050_000)).toBe("1,05\u00a0Mio.");
  });
});
