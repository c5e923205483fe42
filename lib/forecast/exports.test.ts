/**
 * The forecast's CSV exports (lib/forecast/exports.ts): the forecast rows carry the rate, its date and the amount
 * in the reporting currency (empty without a rate); the comparison marks each case's lowest day and lists the rates
 * each case used, a scenario's own rate included.
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { comparisonCsv, forecastCsv } from "./exports";
import { balances } from "./scenario";

const parse = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

describe("forecastCsv", () => {
  it("converts each row at its currency's rate and leaves a currency without one empty", () => {
    const row = (currency: string, amount: string) => ({
      start: "2026-12-01",
      end: "2026-12-07",
      company: "c1",
      currency,
      category: "=cmd",
      amount,
      p10: amount,
      p90: amount,
    });
    const out = parse(
      forecastCsv([row("USD", "-100.005"), row("EUR", "5"), row("JPY", "1")], "EUR", {
        USD: { rate: "0.9", date: "2026-11-26" },
      }),
    );
    expect(out.map((r) => [r.currency, r.rate, r.rate_date, r.amount_reporting])).toEqual([
      ["USD", "0.9", "2026-11-26", "-90.00"],
      ["EUR", "1", "", "5.00"],
      ["JPY", "", "", ""],
    ]);
    // A text that a spreadsheet would run as a formula is escaped.
    expect(out[0]?.category).toBe("'=cmd");
  });
});

describe("comparisonCsv", () => {
  it("marks each case's lowest day and lists its rates", () => {
    const args = {
      openings: [{ company: "A", currency: "EUR", amount: "100" }],
      from: "2027-01-01",
      to: "2027-01-03",
      reportingCurrency: "EUR",
    };
    const flow = (date: string, amount: string) => ({
      date,
      company: "A",
      currency: "EUR",
      category: "x",
      amount,
      p10: amount,
      p90: amount,
      source: "manual" as const,
    });
    const base = balances({ ...args, flows: [flow("2027-01-02", "-50")], fx: {} });
    const later = balances({ ...args, flows: [flow("2027-01-03", "-80")], fx: {} });
    const out = parse(
      comparisonCsv(
        [
          { name: "Base case", balances: base, fx: { USD: { rate: "0.9", date: "2026-12-31" } } },
          { name: "Later", balances: later, fx: { USD: { rate: "1.1", date: "scenario" } } },
        ],
        "EUR",
      ),
    );
    expect(out.map((r) => [r.case, r.date, r.balance, r.lowest])).toEqual([
      ["Base case", "2027-01-01", "100.00", ""],
      ["Base case", "2027-01-02", "50.00", "yes"],
      ["Base case", "2027-01-03", "50.00", ""],
      ["Later", "2027-01-01", "100.00", ""],
      ["Later", "2027-01-02", "100.00", ""],
      ["Later", "2027-01-03", "20.00", "yes"],
    ]);
    expect(out[0]?.rates).toBe("USD 0.9 (2026-12-31)");
    expect(out[3]?.rates).toBe("USD 1.1 (scenario)");
    expect(out[5]?.lowest_balance).toBe("20.00");
  });
});
