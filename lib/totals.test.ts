import { describe, expect, it } from "vitest";
import {
  cashflowTotals,
  dailyChanges,
  flowTotalsByCurrency,
  latestWithChange,
  sumAmounts,
  totalsByCurrency,
} from "./totals";

describe("totalsByCurrency", () => {
  it("sums exactly per currency, never mixing currencies", () => {
    const rows = [
      { c: "NOK", a: "0.10" },
      { c: "EUR", a: "5" },
      { c: "NOK", a: "0.20" },
      { c: "EUR", a: "-2.5" },
    ];
    expect(
      totalsByCurrency(
        rows,
        (r) => r.c,
        (r) => r.a,
      ),
    ).toEqual([
      { currency: "EUR", total: "2.5", count: 2 },
      { currency: "NOK", total: "0.30", count: 2 },
    ]);
  });

  it("keeps the largest scale and large values exact", () => {
    const rows = ["999999999999999999.99", "0.01", "100.5"].map((a) => ({ a }));
    expect(
      totalsByCurrency(
        rows,
        () => "SEK",
        (r) => r.a,
      ),
    ).toEqual([{ currency: "SEK", total: "1000000000000000100.50", count: 3 }]);
  });

  it("is empty for no rows and throws on a non-decimal amount", () => {
    expect(
      totalsByCurrency(
        [],
        () => "NOK",
        () => "1",
      ),
    ).toEqual([]);
    expect(() =>
      totalsByCurrency(
        [{ a: "abc" }],
        () => "NOK",
        (r) => r.a,
      ),
    ).toThrow();
  });
});

describe("sumAmounts", () => {
  it("is exact beyond decimal.js's default 20 significant digits", () => {
    // With the default precision this gives 2000000000000000000.00.
    expect(sumAmounts(["999999999999999999.99", "999999999999999999.99"])).toBe("1999999999999999999.98");
    expect(sumAmounts(["999999999999999999.999999", "0.000001"])).toBe("1000000000000000000.000000");
    expect(sumAmounts(["-999999999999999999.99", "0.01"])).toBe("-999999999999999999.98");
  });
});

describe("flowTotalsByCurrency", () => {
  it("splits credits and debits and nets them per currency", () => {
    const rows = [
      { amount: "100.00", currency: "NOK", direction: "credit" as const },
      { amount: "30.25", currency: "NOK", direction: "debit" as const },
      { amount: "10", currency: "EUR", direction: "debit" as const },
    ];
    expect(flowTotalsByCurrency(rows)).toEqual([
      { currency: "EUR", inflow: "0", outflow: "10", net: "-10", count: 1 },
      { currency: "NOK", inflow: "100.00", outflow: "30.25", net: "69.75", count: 2 },
    ]);
  });
});

describe("flowTotalsByCurrency: scale", () => {
  it("prints every column at the larger scale of credits and debits", () => {
    const rows = [
      { amount: "1.005", currency: "KWD", direction: "credit" as const },
      { amount: "2.1", currency: "KWD", direction: "debit" as const },
    ];
    expect(flowTotalsByCurrency(rows)).toEqual([
      { currency: "KWD", inflow: "1.005", outflow: "2.100", net: "-1.095", count: 2 },
    ]);
  });
});

describe("cashflowTotals", () => {
  it("orders currencies alphabetically, whatever the row order", () => {
    const rows = [
      { currency: "SEK", inflow: "1", outflow: "0", net: "1" },
      { currency: "EUR", inflow: "2", outflow: "0", net: "2" },
      { currency: "NOK", inflow: "3", outflow: "0", net: "3" },
    ];
    expect(cashflowTotals(rows).map((r) => r.currency)).toEqual(["EUR", "NOK", "SEK"]);
  });

  it("sums report columns per currency", () => {
    const rows = [
      { currency: "NOK", inflow: "1.10", outflow: "0.10", net: "1.00" },
      { currency: "NOK", inflow: "2.20", outflow: "3.30", net: "-1.10" },
    ];
    expect(cashflowTotals(rows)).toEqual([
      { currency: "NOK", inflow: "3.30", outflow: "3.40", net: "-0.10", count: 2 },
    ]);
  });
});

/** One currency's balance rows, `[date, balance]` each, in the order given. */
function series(currency: string, ...days: [string, string][]) {
  return days.map(([date, balance]) => ({ date, currency, balance }));
}

/** One latestWithChange row: the currency's latest balance and its change against the day before. */
function latest(
  currency: string,
  [date, balance]: [string, string],
  previous: [string, string] | null,
  change: string | null,
) {
  return {
    currency,
    date,
    balance,
    previousDate: previous?.[0] ?? null,
    previousBalance: previous?.[1] ?? null,
    change,
  };
}

describe("latestWithChange", () => {
  it.each([
    {
      name: "finds the latest date from rows in ascending or mixed order; the change has the larger scale",
      rows: [
        ...series("SEK", ["2026-02-27", "1.00"], ["2026-02-28", "9.25"], ["2026-03-02", "10.5"]),
        ...series("DKK", ["2026-03-01", "7"], ["2026-03-03", "8"], ["2026-02-01", "1"]),
      ],
      expected: [
        latest("DKK", ["2026-03-03", "8"], ["2026-03-01", "7"], "1"),
        latest("SEK", ["2026-03-02", "10.5"], ["2026-02-28", "9.25"], "1.25"),
      ],
    },
    {
      name: "takes the latest date per currency and the change against the day before, whatever the input order",
      rows: [
        ...series("NOK", ["2026-03-02", "1000.00"], ["2026-03-01", "1200.50"], ["2026-02-28", "1.00"]),
        ...series("EUR", ["2026-03-02", "50.00"]),
      ],
      expected: [
        latest("EUR", ["2026-03-02", "50.00"], null, null),
        latest("NOK", ["2026-03-02", "1000.00"], ["2026-03-01", "1200.50"], "-200.50"),
      ],
    },
  ])("$name", ({ rows, expected }) => {
    expect(latestWithChange(rows)).toEqual(expected);
  });
});

describe("dailyChanges", () => {
  it("gives each day its exact change against the last reported day before it, none for the first", () => {
    const changes = dailyChanges([
      { date: "2026-03-03", balance: "0.3" },
      { date: "2026-02-27", balance: "0.1" },
      { date: "2026-03-02", balance: "0.30" },
      { date: "2026-02-28", balance: "-12345678901234567.89" },
    ]);
    expect([...changes]).toEqual([
      ["2026-02-28", "-12345678901234567.99"],
      ["2026-03-02", "12345678901234568.19"],
      ["2026-03-03", "0.00"],
    ]);
    expect(changes.has("2026-02-27")).toBe(false);
    expect(dailyChanges([])).toEqual(new Map());
  });
});
