import { describe, expect, it } from "vitest";
import { FxInputError, FxRates } from "../fx/convert";
import { convertLines } from "./conversion";
import { recordingRates } from "./testing";

// EUR reference rates: 1 EUR = rate quote.
const RATES = new FxRates([
  { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.5000" },
  { date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.2000" },
  { date: "2026-11-23", base: "EUR", quote: "USD", rate: "1.2500" },
  // 10 days before the GBP line: too old to use.
  { date: "2026-11-10", base: "EUR", quote: "GBP", rate: "0.8800" },
]);

type Line = { id: string; date: string; currency: string; original: Record<string, string> };
const line = (id: string, date: string, currency: string, original: Record<string, string>): Line => ({
  id,
  date,
  currency,
  original,
});

describe("convertLines", () => {
  it("loads the rates once for every currency over the conversion dates, and converts each figure on its own", async () => {
    const { asked, loadRates } = recordingRates(RATES);
    const r = await convertLines(
      [
        line("a", "2026-11-20", "NOK", { inflow: "1150.00", outflow: "230.00", net: "920.00" }),
        // Saturday: Friday's rate, marked stale.
        line("b", "2026-11-21", "NOK", { inflow: "100.00", outflow: "0.00", net: "100.00" }),
        line("c", "2026-11-23", "USD", { inflow: "125.00", outflow: "0.01", net: "124.99" }),
        line("d", "2026-11-20", "GBP", { inflow: "10.00", outflow: "0.00", net: "10.00" }),
        line("e", "2026-11-19", "EUR", { inflow: "5.00", outflow: "1.00", net: "4.00" }),
      ],
      {
        reportingCurrency: "EUR",
        dateOf: (l) => l.date,
        loadRates,
      },
    );
    expect(asked).toEqual([{ currencies: ["NOK", "USD", "GBP", "EUR"], from: "2026-11-19", to: "2026-11-23" }]);
    expect(r.lines.map((l) => l.id)).toEqual(["a", "b", "c", "d", "e"]);
    // NOK 1150/11.5 = 100.00, 230/11.5 = 20.00; the line's own fields are kept.
    expect(r.lines[0]).toEqual({
      id: "a",
      date: "2026-11-20",
      currency: "NOK",
      original: { inflow: "1150.00", outflow: "230.00", net: "920.00" },
      converted: { inflow: "100.00", outflow: "20.00", net: "80.00" },
      rate: "0.08695652174",
      rateDate: "2026-11-20",
      staleRate: false,
      unconvertedReason: null,
    });
    // NOK 100/11.5 = 8.6956… -> 8.70, with Friday's rate.
    expect(r.lines[1]).toMatchObject({ converted: { inflow: "8.70", outflow: "0.00", net: "8.70" }, staleRate: true });
    // USD 0.01/1.25 = 0.008 -> 0.01 (half to even on the figure, not on the net): net is inflow − outflow converted.
    expect(r.lines[2]?.converted).toEqual({ inflow: "100.00", outflow: "0.01", net: "99.99" });
    expect(r.lines[3]).toMatchObject({
      converted: null,
      rate: null,
      rateDate: null,
      unconvertedReason: "rate_too_old",
    });
    expect(r.lines[4]).toMatchObject({ converted: { inflow: "5.00", outflow: "1.00", net: "4.00" }, rate: "1" });
    expect(r.unconverted).toEqual([{ currency: "GBP", lines: 1 }]);
    // The EUR line's own date (2026-11-19) is not a rate date: only lines in another currency count.
    expect(r.oldestRateDate).toBe("2026-11-20");
    expect(r.staleRateLines).toBe(1);
  });

  it("converts at the date `dateOf` gives, and a line without `net` gets none", async () => {
    const r = await convertLines([line("f", "2026-12-10", "USD", { amount: "120.00" })], {
      reportingCurrency: "NOK",
      dateOf: () => "2026-11-20",
      loadRates: async () => RATES,
    });
    // 120 USD / 1.2 × 11.5 = 1150.00 NOK at the rates of 2026-11-20.
    expect(r.lines[0]).toMatchObject({ converted: { amount: "1150.00" }, rateDate: "2026-11-20", staleRate: false });
    expect(r.oldestRateDate).toBe("2026-11-20");
  });

  it("names a currency without any rate, per currency in code order", async () => {
    const r = await convertLines(
      [
        line("g", "2026-11-20", "SEK", { balance: "1.00" }),
        line("h", "2026-11-20", "DKK", { balance: "2.00" }),
        line("i", "2026-11-21", "SEK", { balance: "3.00" }),
      ],
      { reportingCurrency: "EUR", dateOf: (l) => l.date, loadRates: async () => RATES },
    );
    expect(r.lines.map((l) => l.unconvertedReason)).toEqual(["no_rate", "no_rate", "no_rate"]);
    expect(r.unconverted).toEqual([
      { currency: "DKK", lines: 1 },
      { currency: "SEK", lines: 2 },
    ]);
    expect(r).toMatchObject({ oldestRateDate: null, staleRateLines: 0 });
  });

  it("loads no rates for no lines", async () => {
    const r = await convertLines([] as Line[], {
      reportingCurrency: "EUR",
      dateOf: (l) => l.date,
      loadRates: () => Promise.reject(new Error("must not be called")),
    });
    expect(r).toEqual({ lines: [], unconverted: [], oldestRateDate: null, staleRateLines: 0 });
  });

  it("throws for a malformed reporting currency or figure; a failing rate load rejects", async () => {
    const opts = { reportingCurrency: "EUR", dateOf: (l: Line) => l.date, loadRates: async () => RATES };
    await expect(convertLines([], { ...opts, reportingCurrency: "euro" })).rejects.toThrow(RangeError);
    await expect(convertLines([line("j", "2026-11-20", "NOK", { inflow: "1,5" })], opts)).rejects.toBeInstanceOf(
      FxInputError,
    );
    await expect(
      convertLines([line("k", "2026-11-20", "NOK", { inflow: "1" })], {
        ...opts,
        loadRates: () => Promise.reject(new Error("rates down")),
      }),
    ).rejects.toThrow("rates down");
  });
});
