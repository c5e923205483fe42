import { describe, expect, it } from "vitest";
import { backtest } from "./backtest";
import { toDay } from "./days";
import { holtWinters, lastMonth, lastWeek, seasonalNaive, BASELINE } from "./models";

/** A seeded generator (mulberry32) and Box–Muller normals, so the series are the same on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u() || 1e-12)) * Math.cos(2 * Math.PI * u());
}

const START = toDay("2025-01-06"); // a Monday

describe("the simple rungs", () => {
  it("seasonal naive averages each weekday over the last 13 weeks", () => {
    // 20 weeks: weekday k is worth k in the first 7 weeks and k + 10 in the last 13.
    const y = Array.from({ length: 140 }, (_, t) => (t % 7) + (t >= 49 ? 10 : 0));
    expect(seasonalNaive(y, 9)).toEqual([10, 11, 12, 13, 14, 15, 16, 10, 11]);
  });
  it("last week repeats the last 7 days", () => {
    expect(lastWeek([9, 1, 2, 3, 4, 5, 6, 7], 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 1]);
  });
  it("last month repeats the same day of month; the 31st of a 30-day month is 0", () => {
    // History: 2025-03-01 … 2025-04-30 with the value = day of month.
    const s = toDay("2025-03-01");
    const y = Array.from({ length: 61 }, (_, i) => new Date((s + i) * 86_400_000).getUTCDate());
    const f = lastMonth(y, 31, s); // 2025-05-01 … 2025-05-31
    expect(f[0]).toBe(1);
    expect(f[29]).toBe(30);
    expect(f[30]).toBe(0); // April has no 31st
  });
});

describe("the ladder by backtest", () => {
  it("on weekly seasonality + trend + noise, the chosen model beats seasonal naive by at least 10 % WAPE", () => {
    const noise = rng(7);
    const season = [120, 80, 60, 40, -20, -140, -140];
    const y = Array.from({ length: 420 }, (_, t) => 1000 + 3 * t + (season[t % 7] ?? 0) + 40 * noise());
    const bt = backtest(y, START);
    expect(bt.origins).toBe(12);
    expect(bt.chosen).not.toBe(BASELINE);
    const chosen = bt.models[bt.chosen]?.wape ?? NaN;
    const base = bt.models[BASELINE]?.wape ?? NaN;
    expect(chosen).toBeLessThanOrEqual(base * 0.9);
    // Also better than repeating last week.
    expect(chosen).toBeLessThan(bt.models.last_week?.wape ?? NaN);
    expect(bt.models[bt.chosen]?.mase).toBeGreaterThan(0);
  });

  it("on pure noise, the ladder keeps the baseline", () => {
    for (const seed of [1, 2, 3]) {
      const noise = rng(seed);
      const y = Array.from({ length: 420 }, () => 500 + 100 * noise());
      const bt = backtest(y, START);
      expect(bt.chosen).toBe(BASELINE);
    }
  });

  it("with too little history there are no origins and the baseline is kept", () => {
    const bt = backtest([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], START);
    expect(bt).toMatchObject({ origins: 0, chosen: BASELINE });
  });

  it("Holt-Winters follows a clean trend with a weekly pattern", () => {
    const y = Array.from({ length: 140 }, (_, t) => 100 + 2 * t + ([5, 0, 0, 0, 0, -5, 0][t % 7] ?? 0));
    const f = holtWinters(y, 7);
    for (let i = 0; i < 7; i++) expect(f[i]).toBeCloseTo(100 + 2 * (140 + i) + ([5, 0, 0, 0, 0, -5, 0][i] ?? 0), -1);
  });
});
