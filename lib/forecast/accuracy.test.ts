import { describe, expect, it } from "vitest";
import { accuracy, weakSpots } from "./accuracy";
import type { BacktestResult } from "./backtest";

/** A backtest of 2 horizon weeks with the given error sums (chosen model and baseline) over `act` actuals. */
function bt(chosen: "holt_winters" | "seasonal_naive", err: number[], base: number[], act: number[]): BacktestResult {
  const m = (e: number[]) => ({ absErr: e, absActual: act, errors: [], wape: null, mase: null });
  return { origins: 12, weeks: 2, chosen, models: { seasonal_naive: m(base), holt_winters: m(err) } };
}

describe("accuracy in plain words", () => {
  it("sums errors over a category's series by hand and says how much better than the baseline", () => {
    const series = [
      {
        company: "A",
        currency: "EUR",
        category: "payroll",
        backtest: bt("holt_winters", [10, 20], [20, 30], [100, 100]),
      },
      { company: "B", currency: "USD", category: "payroll", backtest: bt("holt_winters", [4, 4], [10, 10], [50, 50]) },
      { company: "A", currency: "EUR", category: "rent", backtest: bt("seasonal_naive", [30, 30], [30, 30], [40, 40]) },
    ];
    const [payroll, rent] = accuracy(series, "category", { USD: 0.5 });
    // payroll: errors 10+20 + (4+4)·0.5 = 34 over 200 + 100·0.5 = 250 → 13.6 %; baseline 50 + 10 = 60 → 24 %.
    expect(payroll?.wape).toBeCloseTo(0.136, 6);
    expect(payroll?.baseline_wape).toBeCloseTo(0.24, 6);
    expect(payroll?.gain).toBeCloseTo(1 - 0.136 / 0.24, 6);
    expect(payroll?.by_week[0]).toBeCloseTo((10 + 2) / 125, 6);
    expect(payroll?.summary).toBe("Last 12 weeks: WAPE 14 % on payroll, 43 % better than the same-weekday average.");
    expect(rent?.summary).toBe("Last 12 weeks: WAPE 75 % on rent, as good as the same-weekday average.");
    expect(weakSpots([payroll, rent].filter((g) => g !== undefined)).map((g) => g.group)).toEqual(["rent"]);
    expect(accuracy(series, "all")[0]).toMatchObject({
      group: "all",
      series: 3,
      models: { holt_winters: 2, seasonal_naive: 1 },
    });
  });

  it("says when there is not enough history", () => {
    const none: BacktestResult = { origins: 0, weeks: 13, chosen: "seasonal_naive", models: {} };
    expect(accuracy([{ company: "A", currency: "EUR", category: "tax", backtest: none }], "category")[0]?.summary).toBe(
      "Not enough history to measure tax yet.",
    );
  });
});
