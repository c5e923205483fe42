import { describe, expect, it } from "vitest";
import { cashflowSeries, forecastSeries, groupByCurrency, intradaySeries } from "./series";

const id = "00000000-0000-4000-8000-000000000001";

describe("chart series", () => {
  it("groups by currency in code order", () => {
    const g = groupByCurrency([{ currency: "SEK" }, { currency: "EUR" }, { currency: "SEK" }]);
    expect(g.map(([c, r]) => [c, r.length])).toEqual([
      ["EUR", 1],
      ["SEK", 2],
    ]);
  });

  it("sorts intraday points by time and keeps the exact balance", () => {
    const s = intradaySeries([
      {
        id,
        account_id: id,
        timestamp: "2026-01-10T10:00:00Z",
        balance: "100.10",
        currency: "NOK",
        balance_type: "interim_booked",
      },
      {
        id,
        account_id: id,
        timestamp: "2026-01-10T09:00:00+00:00",
        balance: "12345678901234567.89",
        currency: "NOK",
        balance_type: "interim_booked",
      },
    ]);
    expect(s.map((p) => p.balance)).toEqual(["12345678901234567.89", "100.10"]);
  });

  it("plots outflow below zero and keeps the report row", () => {
    const [d] = cashflowSeries([
      { date: "2026-01-10", currency: "NOK", inflow: "10.00", outflow: "4.50", net: "5.50" },
    ]);
    expect(d).toMatchObject({ inflow: 10, outflow: -4.5, net: 5.5, row: { outflow: "4.50" } });
  });

  it("fills days without flows with zero rows so the time axis is to scale", () => {
    const s = cashflowSeries([
      { date: "2026-02-27", currency: "EUR", inflow: "1.00", outflow: "0.00", net: "1.00" },
      { date: "2026-03-02", currency: "EUR", inflow: "0.00", outflow: "2.50", net: "-2.50" },
    ]);
    expect(s.map((d) => [d.date, d.row.net, d.outflow])).toEqual([
      ["2026-02-27", "1.00", -0],
      ["2026-02-28", "0.00", -0],
      ["2026-03-01", "0.00", -0],
      ["2026-03-02", "-2.50", -2.5],
    ]);
    expect(s[1]?.row).toEqual({ date: "2026-02-28", currency: "EUR", inflow: "0.00", outflow: "0.00", net: "0.00" });
    expect(cashflowSeries([])).toEqual([]);
  });

  it("continues the forecast from the last actual position and skips overlapping entries", () => {
    const s = forecastSeries(
      [
        { date: "2026-01-11", currency: "NOK", balance: "200.00" },
        { date: "2026-01-10", currency: "NOK", balance: "100.00" },
      ],
      [
        { date: "2026-01-12", currency: "NOK", amount: "250.00" },
        { date: "2026-01-11", currency: "NOK", amount: "999.00" },
      ],
    );
    expect(s.map((d) => [d.date, d.actualAmount, d.forecastAmount])).toEqual([
      ["2026-01-10", "100.00", null],
      ["2026-01-11", "200.00", "200.00"],
      ["2026-01-12", null, "250.00"],
    ]);
  });

  it("draws a forecast alone when there are no actual positions", () => {
    const s = forecastSeries([], [{ date: "2026-01-12", currency: "NOK", amount: "1.00" }]);
    expect(s).toHaveLength(1);
    expect(s[0]?.actual).toBeNull();
  });
});
