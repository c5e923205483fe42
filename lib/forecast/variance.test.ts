import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { manualFlow } from "./testing";
import type { Flow, HistoryTxn } from "./types";
import { actualWeeks, figures, isoWeek, snapshotRows, variance, wape, weekStart, type Snapshot } from "./variance";

const flow = (date: string, amount: string, category = "Sales", currency = "EUR"): Flow =>
  manualFlow(date, amount, category, "c1", currency);

const txn = (date: string, amount: string, category = "Sales", company = "c1", currency = "EUR"): HistoryTxn => ({
  date,
  company,
  currency,
  category,
  amount,
});

describe("ISO weeks", () => {
  it("finds the Monday and the ISO week label, across a year end", () => {
    expect(weekStart("2026-11-27")).toBe("2026-11-23");
    expect(weekStart("2026-11-23")).toBe("2026-11-23");
    expect(weekStart("2026-11-29")).toBe("2026-11-23");
    expect(isoWeek("2026-11-27")).toBe("2026-W48");
    expect(isoWeek("2026-12-31")).toBe("2026-W53");
    expect(isoWeek("2027-01-03")).toBe("2026-W53");
    expect(isoWeek("2025-12-29")).toBe("2026-W01");
    expect(isoWeek("2021-01-03")).toBe("2020-W53");
  });
});

describe("snapshotRows", () => {
  it("sums flows per complete ISO week, currency and category, exactly, and drops partial weeks", () => {
    // asOf Wednesday 2026-11-25: the week of 11-23 is partial, 11-30 and 12-07 complete, 12-14 partial (to = 12-16).
    const rows = snapshotRows(
      [
        flow("2026-11-27", "100.10"),
        flow("2026-11-30", "0.1"),
        flow("2026-12-06", "0.2"),
        flow("2026-12-01", "-50", "Payroll"),
        flow("2026-12-01", "10", "Sales", "USD"),
        flow("2026-12-07", "-1.005"),
        flow("2026-12-15", "999"),
      ],
      "2026-11-25",
      "2026-12-16",
    );
    expect(rows).toEqual([
      { week_start: "2026-11-30", currency: "EUR", category: "Payroll", amount: "-50" },
      { week_start: "2026-11-30", currency: "EUR", category: "Sales", amount: "0.3" },
      { week_start: "2026-11-30", currency: "USD", category: "Sales", amount: "10" },
      { week_start: "2026-12-07", currency: "EUR", category: "Sales", amount: "-1.005" },
    ]);
  });
});

describe("actualWeeks", () => {
  it("sums the history per company and complete past week; the week of asOf is left out", () => {
    const rows = actualWeeks(
      [
        txn("2026-11-16", "10.5"),
        txn("2026-11-22", "-0.5"),
        txn("2026-11-18", "7", "Sales", "c2"),
        txn("2026-11-23", "1000"),
      ],
      "2026-11-27",
    );
    expect(rows).toEqual([
      { week_start: "2026-11-16", company: "c1", currency: "EUR", category: "Sales", amount: "10" },
      { week_start: "2026-11-16", company: "c2", currency: "EUR", category: "Sales", amount: "7" },
    ]);
  });

  it.each([
    ["sums as numbers", 1],
    ["sums past 2^53 millionths (bigints)", 1e9],
  ])("gives decimal.js sums in week and key order, for a shuffled history: %s", (_, scale) => {
    let seed = 5;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const asOf = "2026-11-27";
    const day0 = Date.parse("2026-08-01");
    const history: HistoryTxn[] = [];
    for (let i = 0; i < 3000; i++) {
      const date = new Date(day0 + Math.floor(rand() * 119) * 86_400_000).toISOString().slice(0, 10);
      const amount = new Decimal(Math.round((rand() - 0.4) * 2e8 * scale)).div(1e6).toFixed(Math.floor(rand() * 7));
      history.push(txn(date, amount, `k${i % 4}`, `c${i % 3}`, i % 5 === 0 ? "USD" : "EUR"));
    }
    const ref = new Map<string, Decimal>();
    for (const t of history) {
      const ws = weekStart(t.date);
      if (Date.parse(ws) + 6 * 86_400_000 >= Date.parse(asOf)) continue;
      const k = `${ws}|${t.company}|${t.currency}|${t.category}`;
      ref.set(k, (ref.get(k) ?? new Decimal(0)).plus(t.amount));
    }
    const expected = [...ref.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.toFixed()]);
    const got = actualWeeks(history, asOf).map((r) => [
      `${r.week_start}|${r.company}|${r.currency}|${r.category}`,
      new Decimal(r.amount).toFixed(),
    ]);
    expect(got).toEqual(expected);
  });

  it("refuses an amount that is not a decimal string with at most 6 decimals, naming it", () => {
    expect(() => actualWeeks([txn("2026-11-16", "1.0000001")], "2026-11-27")).toThrow("1.0000001");
    expect(() => actualWeeks([txn("2026-11-16", "1e3")], "2026-11-27")).toThrow("1e3");
  });
});

describe("figures and WAPE", () => {
  it("difference is actual − forecast; percent over |actual|; null when the actual is 0", () => {
    expect(figures(new Decimal("100"), new Decimal("90"))).toEqual({
      forecast: "100.00",
      actual: "90.00",
      difference: "-10.00",
      percent: "-11.1",
    });
    expect(figures(new Decimal("-200"), new Decimal("-250"))).toEqual({
      forecast: "-200.00",
      actual: "-250.00",
      difference: "-50.00",
      percent: "-20.0",
    });
    expect(figures(new Decimal("5"), new Decimal("0")).percent).toBeNull();
  });

  it("WAPE = Σ|A − F| / Σ|A| × 100 (errors of opposite sign do not cancel)", () => {
    const d = (f: string, a: string) => ({ forecast: new Decimal(f), actual: new Decimal(a) });
    // |90-100| + |-260-(-200)| = 10 + 60 = 70; |90| + |-260| = 350 → 20.0 %
    expect(wape([d("100", "90"), d("-200", "-260")])).toBe("20.0");
    expect(wape([d("1", "0")])).toBeNull();
    expect(wape([])).toBeNull();
  });
});

describe("variance", () => {
  const snap = (as_of: string, forecast_to: string, rows: Snapshot["rows"], company = "c1"): Snapshot => ({
    iso_week: isoWeek(as_of),
    company,
    as_of,
    forecast_to,
    rows,
  });

  it("compares each past week with the latest snapshot made before it, in the reporting currency", () => {
    const snapshots = [
      // Taken in W46 (as_of 11-10): covers W47 (11-16) and W48.
      snap("2026-11-10", "2026-12-08", [
        { week_start: "2026-11-16", currency: "EUR", category: "Sales", amount: "1000" },
        { week_start: "2026-11-16", currency: "USD", category: "Payroll", amount: "-500" },
        { week_start: "2026-11-23", currency: "EUR", category: "Sales", amount: "777" },
      ]),
      // Taken in W45: older, covers W47 too — the W46 one wins.
      snap("2026-11-03", "2026-12-01", [{ week_start: "2026-11-16", currency: "EUR", category: "Sales", amount: "1" }]),
      // Another company's snapshot, not visible.
      snap(
        "2026-11-10",
        "2026-12-08",
        [{ week_start: "2026-11-16", currency: "EUR", category: "Sales", amount: "5" }],
        "c9",
      ),
    ];
    const actuals = [
      { week_start: "2026-11-16", company: "c1", currency: "EUR", category: "Sales", amount: "900" },
      { week_start: "2026-11-16", company: "c1", currency: "USD", category: "Payroll", amount: "-600" },
      { week_start: "2026-11-16", company: "c1", currency: "EUR", category: "Fees", amount: "-20" },
      { week_start: "2026-11-16", company: "c9", currency: "EUR", category: "Sales", amount: "5000" },
      // W46: the W45 snapshot (as_of 11-03) covers it and forecast nothing there.
      { week_start: "2026-11-09", company: "c1", currency: "EUR", category: "Sales", amount: "50" },
      // W45: no snapshot was made before it began → the week is left out.
      { week_start: "2026-11-02", company: "c1", currency: "EUR", category: "Sales", amount: "70" },
    ];
    const inputs = { asOf: "2026-11-25", weeks: 3, snapshots, actuals, companies: ["c1"], reporting: "EUR", fx: {} };
    const v = variance({ ...inputs, fx: { USD: { rate: "0.9", date: "2026-11-24" } } });
    expect(v.from).toBe("2026-11-02");
    expect(v.to).toBe("2026-11-22");
    expect(v.weeks.map((x) => x.week_start)).toEqual(["2026-11-09", "2026-11-16"]);
    expect(v.weeks[0]).toMatchObject({
      snapshot_as_of: "2026-11-03",
      forecast: "0.00",
      actual: "50.00",
      percent: "100.0",
    });
    const w = v.weeks[1];
    // Forecast 1000 − 450 = 550; actual 900 − 540 − 20 = 340; difference −210; −61.8 %.
    expect(w).toMatchObject({
      week_start: "2026-11-16",
      week_end: "2026-11-22",
      iso_week: "2026-W47",
      snapshot_as_of: "2026-11-10",
      forecast: "550.00",
      actual: "340.00",
      difference: "-210.00",
      percent: "-61.8",
    });
    expect(w?.categories).toEqual([
      { category: "Fees", forecast: "0.00", actual: "-20.00", difference: "-20.00", percent: "-100.0" },
      { category: "Payroll", forecast: "-450.00", actual: "-540.00", difference: "-90.00", percent: "-16.7" },
      { category: "Sales", forecast: "1000.00", actual: "900.00", difference: "-100.00", percent: "-11.1" },
    ]);
    // Cells: |50| + |−20| + |−90| + |−100| = 260 over 50 + 20 + 540 + 900 = 1510 → 17.2 %.
    expect(v.wape).toBe("17.2");
    expect(v.by_category.find((c) => c.category === "Payroll")?.wape).toBe("16.7");
    expect(v.first_comparison).toBeNull();
    expect(v.missing_rates).toEqual([]);

    const sales = variance({ ...inputs, category: "Sales" });
    expect(sales.weeks[1]).toMatchObject({ forecast: "1000.00", actual: "900.00", percent: "-11.1" });
    expect(sales.weeks[1]?.categories.map((c) => c.category)).toEqual(["Sales"]);
    // (50 + 100) / (50 + 900) → 15.8 %.
    expect(sales.wape).toBe("15.8");
    expect(sales.missing_rates).toEqual([]);

    const noRate = variance(inputs);
    expect(noRate.missing_rates).toEqual(["USD"]);
    expect(noRate.weeks[1]?.forecast).toBe("1000.00");
  });

  it("says when the first comparison appears while there is none", () => {
    const base = { asOf: "2026-11-25", weeks: 4, actuals: [], companies: ["c1"], reporting: "EUR", fx: {} };
    // No snapshot: taken this week (W48), covers W49 (11-30) at the earliest → compared from Monday 12-07.
    expect(variance({ ...base, snapshots: [] })).toMatchObject({
      weeks: [],
      wape: null,
      first_comparison: "2026-12-07",
    });
    // A snapshot taken today (Wednesday): its first complete week is 11-30 → 12-07 too.
    expect(variance({ ...base, snapshots: [snap("2026-11-25", "2027-02-24", [])] }).first_comparison).toBe(
      "2026-12-07",
    );
    // Taken on a Sunday: the next day starts a week it covers wholly → compared the Monday after.
    expect(
      variance({ ...base, asOf: "2026-11-29", snapshots: [snap("2026-11-29", "2027-02-28", [])] }).first_comparison,
    ).toBe("2026-12-07");
  });

  it("refuses a window outside 1–26 weeks", () => {
    const base = { asOf: "2026-11-25", snapshots: [], actuals: [], companies: [], reporting: "EUR", fx: {} };
    expect(() => variance({ ...base, weeks: 0 })).toThrow(RangeError);
    expect(() => variance({ ...base, weeks: 27 })).toThrow(RangeError);
    expect(() => variance({ ...base, weeks: 1.5 })).toThrow(RangeError);
  });
});
