import { describe, expect, it } from "vitest";
import { forecastExportRows } from "./forecast-export";

describe("forecastExportRows", () => {
  const range = { from_date: "2026-03-01", to_date: "2026-03-02" };
  const positions = [
    { date: "2026-03-02", currency: "NOK", balance: "100.10" },
    { date: "2026-02-28", currency: "NOK", balance: "90.00" },
    { date: "2026-03-01", currency: "NOK", balance: "95.00" },
    { date: "2026-03-01", currency: "SEK", balance: "7.00" },
    { date: "2026-03-01", currency: "EUR", balance: "5.00" },
  ];
  const forecast = [
    { date: "2026-03-03", currency: "NOK", amount: "101.00" },
    { date: "2026-03-03", currency: "EUR", amount: "5.50" },
  ];

  it("puts the range's actual positions before the forecast, per currency, amounts untouched", () => {
    expect(forecastExportRows(positions, forecast, range)).toEqual([
      { date: "2026-03-01", currency: "EUR", kind: "actual", amount: "5.00" },
      { date: "2026-03-03", currency: "EUR", kind: "forecast", amount: "5.50" },
      { date: "2026-03-01", currency: "NOK", kind: "actual", amount: "95.00" },
      { date: "2026-03-02", currency: "NOK", kind: "actual", amount: "100.10" },
      { date: "2026-03-03", currency: "NOK", kind: "forecast", amount: "101.00" },
    ]);
  });

  it("leaves out positions outside the range and currencies without a forecast (not shown)", () => {
    const rows = forecastExportRows(positions, forecast, range);
    expect(rows.some((r) => r.date === "2026-02-28")).toBe(false);
    expect(rows.some((r) => r.currency === "SEK")).toBe(false);
  });

  it("is empty without a forecast, as the report is", () => {
    expect(forecastExportRows(positions, [], range)).toEqual([]);
  });
});

describe("forecastExportRows with a breakdown (API extension)", () => {
  it("carries each forecast day's parts on its row; actual rows have none", () => {
    const breakdown = {
      opening: "100.00",
      opening_date: "2026-03-02",
      expected_flows: "3.50",
      outgoing_batches: "2.50",
      outgoing_today: "2.50",
    };
    const rows = forecastExportRows(
      [{ date: "2026-03-02", currency: "NOK", balance: "100.00" }],
      [{ date: "2026-03-03", currency: "NOK", amount: "101.00", breakdown }],
      { from_date: "2026-03-01", to_date: "2026-03-02" },
    );
    expect(rows).toEqual([
      { date: "2026-03-02", currency: "NOK", kind: "actual", amount: "100.00" },
      { date: "2026-03-03", currency: "NOK", kind: "forecast", amount: "101.00", ...breakdown },
    ]);
  });
});
