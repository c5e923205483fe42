import { describe, expect, it } from "vitest";
import { downsample } from "./downsample";

interface P {
  t: number;
  v: number;
  balance: string;
}
const acc = { x: (p: P) => p.t, y: (p: P) => p.v };

/** A day of 10-second points (8,640) with a smooth wave. */
function day(n = 8640): P[] {
  return Array.from({ length: n }, (_, i) => {
    const v = Math.round(Math.sin(i / 400) * 100000) / 100;
    return { t: i * 10_000, v, balance: v.toFixed(2) };
  });
}

describe("downsample (LTTB + extremes)", () => {
  it("returns the input unchanged when it is small enough", () => {
    const pts = day(100);
    expect(downsample(pts, 1500, acc)).toBe(pts);
  });

  it("reduces 8,640 points to at most the threshold, keeping first and last, in order", () => {
    const pts = day();
    const out = downsample(pts, 1500, acc);
    expect(out.length).toBeLessThanOrEqual(1500);
    expect(out.length).toBeGreaterThan(1400);
    expect(out[0]).toBe(pts[0]);
    expect(out[out.length - 1]).toBe(pts[pts.length - 1]);
    for (let i = 1; i < out.length; i++) expect((out[i] as P).t).toBeGreaterThan((out[i - 1] as P).t);
  });

  it("keeps a one-point spike and a one-point dip (the day's extremes)", () => {
    const pts = day().map((p) => ({ ...p, v: 500 }));
    pts[4321] = { t: 4321 * 10_000, v: 999_999, balance: "999999.00" };
    pts[777] = { t: 777 * 10_000, v: -123_456, balance: "-123456.00" };
    const out = downsample(pts, 50, acc);
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out.some((p) => p.balance === "999999.00")).toBe(true);
    expect(out.some((p) => p.balance === "-123456.00")).toBe(true);
  });

  it("keeps extremes that plain LTTB would drop (many spikes in one bucket)", () => {
    const pts: P[] = Array.from({ length: 10_000 }, (_, i) => ({ t: i, v: i % 2 === 0 ? 0 : 1, balance: "x" }));
    pts[5000] = { t: 5000, v: 10, balance: "max" };
    pts[5001] = { t: 5001, v: -10, balance: "min" };
    const out = downsample(pts, 10, acc);
    expect(out.map((p) => p.balance)).toEqual(expect.arrayContaining(["max", "min"]));
  });

  it("returns the caller's objects (exact decimal strings survive for tooltips)", () => {
    const pts = day(3000);
    const out = downsample(pts, 300, acc);
    for (const p of out) expect(pts).toContain(p);
  });

  it("refuses a threshold below 4 or not an integer", () => {
    expect(() => downsample(day(10), 3, acc)).toThrow(RangeError);
    expect(() => downsample(day(10), 10.5, acc)).toThrow(RangeError);
  });
});
