import { describe, expect, it } from "vitest";
import { FxInputError, FxRates, MAX_RATE_AGE_DAYS, sumInCurrency } from "./convert";
import { isoMinorUnits } from "./currencies";

const row = (date: string, quote: string, rate: string) => ({ date, base: "EUR", quote, rate });

// Friday 13 and Friday 20 November 2026; SEK only on the 13th; a non-EUR base row that must be ignored.
const rates = new FxRates([
  row("2026-11-20", "NOK", "11.7"),
  row("2026-11-13", "NOK", "11.5"),
  row("2026-11-20", "SEK", "11"),
  row("2026-11-13", "USD", "1.1"),
  row("2026-11-20", "JPY", "165"),
  row("2026-11-20", "KWD", "0.3"),
  { date: "2026-11-20", base: "USD", quote: "NOK", rate: "99" },
]);

/** Expects `rates.convert(amount, from, to, date)` to be exactly its request echoed back plus `outcome`. */
function expectConversion([amount, from, to, date]: [string, string, string, string], outcome: object) {
  expect(rates.convert(amount, from, to, date)).toEqual({ amount, currency: from, date, to, ...outcome });
}

describe("convert", () => {
  it("converts with the rate of the day and says so", () => {
    expectConversion(["100.00", "EUR", "NOK", "2026-11-20"], {
      status: "converted",
      value: "1170.00",
      rate: "11.7",
      rateDate: "2026-11-20",
      stale: false,
      legs: [{ currency: "NOK", rate: "11.7", rateDate: "2026-11-20" }],
    });
    expect(rates.convert("1170", "NOK", "EUR", "2026-11-20")).toMatchObject({ value: "100.00", stale: false });
  });

  it("crosses via EUR at full precision and rounds only the result", () => {
    // 1,000,000 NOK → SEK: 1e6 × 11 / 11.7 = 940,170.940…; via a rounded EUR amount (85,470.09) it would be
    // 940,170.99.
    const c = rates.convert("1000000.00", "NOK", "SEK", "2026-11-20");
    expect(c).toMatchObject({ status: "converted", value: "940170.94", rate: "0.9401709402", stale: false });
    expect(c.status === "converted" && c.legs.map((l) => l.currency)).toEqual(["NOK", "SEK"]);
  });

  it("returns the same currency unchanged, without a rate or rounding", () => {
    expect(rates.convert("12.345", "GBP", "GBP", "1999-01-04")).toMatchObject({
      status: "converted",
      value: "12.345",
      rate: "1",
      stale: false,
      legs: [],
    });
  });

  it("rounds half to even at the target's minor units", () => {
    // 0.03 × 11.5 = 0.345 → 0.34 (half-up would give 0.35); 0.01 × 11.5 = 0.115 → 0.12.
    expect(rates.convert("0.03", "EUR", "NOK", "2026-11-13")).toMatchObject({ value: "0.34" });
    expect(rates.convert("0.01", "EUR", "NOK", "2026-11-13")).toMatchObject({ value: "0.12" });
    expect(rates.convert("-0.03", "EUR", "NOK", "2026-11-13")).toMatchObject({ value: "-0.34" });
    // A result that rounds to zero has no sign.
    expect(rates.convert("-0.0001", "EUR", "NOK", "2026-11-13")).toMatchObject({ value: "0.00" });
  });

  it("rounds JPY to whole yen and KWD to fils", () => {
    expect(rates.convert("0.1", "EUR", "JPY", "2026-11-20")).toMatchObject({ value: "16" }); // 16.5 → 16
    expect(rates.convert("0.3", "EUR", "JPY", "2026-11-20")).toMatchObject({ value: "50" }); // 49.5 → 50
    expect(rates.convert("1000", "JPY", "EUR", "2026-11-20")).toMatchObject({ value: "6.06" }); // 6.0606…
    expect(rates.convert("10.0005", "EUR", "KWD", "2026-11-20")).toMatchObject({ value: "3.000" }); // 3.00015
    expect([isoMinorUnits("EUR"), isoMinorUnits("JPY"), isoMinorUnits("KWD"), isoMinorUnits("HUF")]).toEqual([
      2, 0, 3, 2,
    ]);
  });

  it("uses an earlier rate up to exactly 7 days old, flagged stale with its date", () => {
    expect(MAX_RATE_AGE_DAYS).toBe(7);
    // Saturday: Friday's rate.
    expect(rates.convert("100", "EUR", "SEK", "2026-11-21")).toMatchObject({
      status: "converted",
      value: "1100.00",
      rateDate: "2026-11-20",
      stale: true,
    });
    // USD's only rate is of the 13th: the 20th is 7 days later.
    expect(rates.convert("110", "USD", "EUR", "2026-11-20")).toMatchObject({
      status: "converted",
      value: "100.00",
      rateDate: "2026-11-13",
      stale: true,
    });
    // A cross rate reports its oldest leg.
    expect(rates.convert("110", "USD", "NOK", "2026-11-20")).toMatchObject({ rateDate: "2026-11-13", stale: true });
  });

  it("leaves the amount unconverted when the rate is 8 days old, naming the currency", () => {
    expectConversion(["110", "USD", "NOK", "2026-11-21"], {
      status: "unconverted",
      reason: "rate_too_old",
      missing: [{ currency: "USD", latestRateDate: "2026-11-13" }],
    });
  });

  it("leaves the amount unconverted when there is no rate at or before the date, or none at all", () => {
    expect(rates.convert("5", "EUR", "NOK", "2026-11-12")).toMatchObject({
      status: "unconverted",
      reason: "no_rate",
      missing: [{ currency: "NOK", latestRateDate: null }],
    });
    expect(rates.convert("5", "CHF", "GBP", "2026-11-20")).toMatchObject({
      status: "unconverted",
      reason: "no_rate",
      missing: [
        { currency: "CHF", latestRateDate: null },
        { currency: "GBP", latestRateDate: null },
      ],
    });
    // A rate with another base is not used, even for its own pair.
    expect(rates.convert("1", "USD", "NOK", "2026-11-30")).toMatchObject({ status: "unconverted" });
  });

  it("refuses malformed input, naming the field", () => {
    expect(() => rates.convert("1,5", "EUR", "NOK", "2026-11-20")).toThrow(FxInputError);
    expect(() => rates.convert("1.5", "eur", "NOK", "2026-11-20")).toThrow(/^from:/);
    expect(() => rates.convert("1.5", "EUR", "NOKK", "2026-11-20")).toThrow(/^to:/);
    expect(() => rates.convert("1.5", "EUR", "NOK", "2026-11-31")).toThrow(/^date:/);
  });
});

describe("sumInCurrency", () => {
  it("sums the rounded converted values and lists the unconverted ones apart, per currency", () => {
    const sum = sumInCurrency(
      rates,
      [
        { amount: "100.00", currency: "EUR", date: "2026-11-20" },
        { amount: "1170.00", currency: "NOK", date: "2026-11-20" },
        { amount: "0.03", currency: "NOK", date: "2026-11-20" }, // 0.0025641… EUR → 0.00
        { amount: "110.00", currency: "USD", date: "2026-11-20" }, // stale (13th)
        { amount: "55.50", currency: "USD", date: "2026-11-27" }, // 14 days: unconverted
        { amount: "10", currency: "USD", date: "2026-11-28" }, // unconverted
        { amount: "7", currency: "CHF", date: "2026-11-20" }, // no rate
      ],
      "EUR",
    );
    expect(sum.total).toBe("300.00");
    expect(sum.items).toHaveLength(7);
    expect(sum.staleCount).toBe(1);
    expect(sum.oldestRateDate).toBe("2026-11-13");
    expect(sum.unconverted.map((u) => [u.amount, u.currency, u.reason])).toEqual([
      ["55.50", "USD", "rate_too_old"],
      ["10", "USD", "rate_too_old"],
      ["7", "CHF", "no_rate"],
    ]);
    expect(sum.unconvertedTotals).toEqual([
      { currency: "CHF", total: "7" },
      { currency: "USD", total: "65.5" },
    ]);
  });

  it("gives a zero total in the reporting currency's minor units for no amounts", () => {
    expect(sumInCurrency(rates, [], "JPY")).toMatchObject({ total: "0", items: [], oldestRateDate: null });
    expect(() => sumInCurrency(rates, [], "yen")).toThrow(/reportingCurrency/);
  });
});
