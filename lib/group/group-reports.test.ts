import { describe, expect, it } from "vitest";
import type { CashflowDay, Company, ForecastEntry, PositionDay } from "@treasury/contract";
import { FxRates } from "../fx/convert";
import { groupReport } from "./group-reports";
import { testCompany } from "./testing";

const TODAY = "2026-11-23"; // a Monday

const company = testCompany;

// EUR reference rates: 1 EUR = rate quote.
const RATES = new FxRates([
  { date: "2026-11-14", base: "EUR", quote: "USD", rate: "1.1000" },
  { date: "2026-11-14", base: "EUR", quote: "NOK", rate: "11.4000" },
  { date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.2000" },
  { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.5000" },
  { date: "2026-11-20", base: "EUR", quote: "DKK", rate: "2.0000" },
  { date: "2026-11-23", base: "EUR", quote: "USD", rate: "1.2500" },
  // 10 days before the GBP row: too old to use.
  { date: "2026-11-10", base: "EUR", quote: "GBP", rate: "0.8800" },
]);
const loadRates = async () => RATES;

const alpha = company("Alpha AS");
const beta = company("Beta AB");
const gamma = company("Gamma Oy");

const cf = (date: string, currency: string, inflow: string, outflow: string, net: string): CashflowDay => ({
  date,
  currency,
  inflow,
  outflow,
  net,
});

describe("groupReport cashflow", () => {
  const rows = new Map<string, CashflowDay[]>([
    [
      alpha.id,
      [
        cf("2026-11-20", "NOK", "1150.00", "230.00", "920.00"),
        // Saturday: Friday's rate, marked stale.
        cf("2026-11-21", "NOK", "100.00", "0.00", "100.00"),
        cf("2026-11-20", "EUR", "50.00", "10.00", "40.00"),
      ],
    ],
    [beta.id, [cf("2026-11-20", "USD", "120.00", "60.00", "60.00"), cf("2026-11-20", "GBP", "10.00", "0.00", "10.00")]],
  ]);
  const read = async (c: Company) => {
    if (c.id === gamma.id) throw new Error("upstream 503");
    return rows.get(c.id) ?? [];
  };

  it("sums every company in EUR per day and per company; the failing company is named and left out", async () => {
    const r = await groupReport({
      kind: "cashflow",
      companies: [alpha, beta, gamma],
      reportingCurrency: "EUR",
      today: TODAY,
      read,
      loadRates,
    });
    // NOK 1150/11.5 = 100.00, 230/11.5 = 20.00; EUR as is; USD 120/1.2 = 100.00, 60/1.2 = 50.00.
    // NOK 100/11.5 = 8.6956… -> 8.70. GBP: rate 10 days old -> unconverted.
    expect(r.days).toEqual([
      {
        date: "2026-11-20",
        total: { inflow: "250.00", outflow: "80.00", net: "170.00" },
        byCompany: {
          [alpha.id]: { inflow: "150.00", outflow: "30.00", net: "120.00" },
          [beta.id]: { inflow: "100.00", outflow: "50.00", net: "50.00" },
        },
      },
      {
        date: "2026-11-21",
        total: { inflow: "8.70", outflow: "0.00", net: "8.70" },
        byCompany: { [alpha.id]: { inflow: "8.70", outflow: "0.00", net: "8.70" } },
      },
    ]);
    expect(r.companies).toEqual([
      {
        id: alpha.id,
        name: "Alpha AS",
        figures: { inflow: "158.70", outflow: "30.00", net: "128.70" },
        lines: 3,
        unconverted: 0,
      },
      {
        id: beta.id,
        name: "Beta AB",
        figures: { inflow: "100.00", outflow: "50.00", net: "50.00" },
        lines: 2,
        unconverted: 1,
      },
    ]);
    expect(r.total).toEqual({ inflow: "258.70", outflow: "80.00", net: "178.70" });
    expect(r.endDate).toBeNull();
    expect(r.unconverted).toEqual([{ currency: "GBP", lines: 1 }]);
    expect(r.staleRateLines).toBe(1);
    expect(r.oldestRateDate).toBe("2026-11-20");
    expect(r.failedCompanies).toEqual([{ id: gamma.id, name: "Gamma Oy", message: "upstream 503" }]);

    const sat = r.lines.find((l) => l.date === "2026-11-21");
    expect(sat).toMatchObject({
      currency: "NOK",
      original: { inflow: "100.00", outflow: "0.00", net: "100.00" },
      converted: { inflow: "8.70", outflow: "0.00", net: "8.70" },
      rate: "0.08695652174",
      rateDate: "2026-11-20",
      staleRate: true,
    });
    const gbp = r.lines.find((l) => l.currency === "GBP");
    expect(gbp).toMatchObject({ converted: null, rate: null, rateDate: null, unconvertedReason: "rate_too_old" });
    const eur = r.lines.find((l) => l.currency === "EUR");
    expect(eur).toMatchObject({ rate: "1", rateDate: "2026-11-20", staleRate: false });
  });

  it("rounds each figure half to even and derives the converted net from converted inflow and outflow", async () => {
    // DKK 2.0: 0.01 / 2 = 0.005 -> 0.00 (half-even, half-up would give 0.01); 0.03 / 2 = 0.015 -> 0.02.
    const r = await groupReport({
      kind: "cashflow",
      companies: [alpha],
      reportingCurrency: "EUR",
      today: TODAY,
      read: async () => [cf("2026-11-20", "DKK", "0.01", "0.03", "-0.02")],
      loadRates,
    });
    expect(r.lines[0]?.converted).toEqual({ inflow: "0.00", outflow: "0.02", net: "-0.02" });
    expect(r.total).toEqual({ inflow: "0.00", outflow: "0.02", net: "-0.02" });
  });

  it("refuses a malformed reporting currency before reading anything", async () => {
    let reads = 0;
    await expect(
      groupReport({
        kind: "cashflow",
        companies: [alpha],
        reportingCurrency: "euro",
        today: TODAY,
        read: async () => {
          reads++;
          return [];
        },
        loadRates,
      }),
    ).rejects.toThrow();
    expect(reads).toBe(0);
  });

  it("reads only the companies given, at most `concurrency` at once", async () => {
    const many = Array.from({ length: 7 }, (_, i) => company(`Co ${i}`));
    const seen: string[] = [];
    let inFlight = 0;
    let peak = 0;
    const r = await groupReport({
      kind: "cashflow",
      companies: many,
      reportingCurrency: "EUR",
      today: TODAY,
      concurrency: 2,
      read: async (c) => {
        seen.push(c.id);
        peak = Math.max(peak, ++inFlight);
        await new Promise((res) => setTimeout(res, 5));
        inFlight--;
        return [cf("2026-11-20", "EUR", "1.00", "0.00", "1.00")];
      },
      loadRates,
    });
    expect(peak).toBe(2);
    expect(seen.sort()).toEqual(many.map((c) => c.id).sort());
    expect(r.total).toEqual({ inflow: "7.00", outflow: "0.00", net: "7.00" });
  });

  it("with no rows loads no rates and returns zero totals", async () => {
    const r = await groupReport({
      kind: "cashflow",
      companies: [alpha],
      reportingCurrency: "EUR",
      today: TODAY,
      read: async () => [],
      loadRates: () => Promise.reject(new Error("must not be called")),
    });
    expect(r.total).toEqual({ inflow: "0.00", outflow: "0.00", net: "0.00" });
    expect(r.days).toEqual([]);
  });
});

describe("groupReport positions", () => {
  it("sums balances per day in NOK; the range figure is the last day's", async () => {
    const rows = new Map<string, PositionDay[]>([
      [
        alpha.id,
        [
          { date: "2026-11-19", currency: "NOK", balance: "1000.00" },
          { date: "2026-11-20", currency: "NOK", balance: "1150.00" },
          { date: "2026-11-20", currency: "EUR", balance: "100.00" },
        ],
      ],
      [
        beta.id,
        [
          { date: "2026-11-19", currency: "USD", balance: "60.00" },
          { date: "2026-11-20", currency: "USD", balance: "120.00" },
        ],
      ],
    ]);
    const r = await groupReport({
      kind: "positions",
      companies: [alpha, beta],
      reportingCurrency: "NOK",
      today: TODAY,
      read: async (c) => rows.get(c.id) ?? [],
      loadRates,
    });
    // 11-19 USD 60 at the 11-14 rates: 60 × 11.4 / 1.1 = 621.8181… -> 621.82 (stale).
    // 11-20: EUR 100 × 11.5 = 1150.00; USD 120 × 11.5 / 1.2 = 1150.00.
    expect(r.days.map((d) => [d.date, d.total.balance])).toEqual([
      ["2026-11-19", "1621.82"],
      ["2026-11-20", "3450.00"],
    ]);
    expect(r.endDate).toBe("2026-11-20");
    expect(r.companies.map((c) => [c.name, c.figures.balance])).toEqual([
      ["Alpha AS", "2300.00"],
      ["Beta AB", "1150.00"],
    ]);
    expect(r.total).toEqual({ balance: "3450.00" });
    expect(r.staleRateLines).toBe(1);
    expect(r.oldestRateDate).toBe("2026-11-14");
  });
});

describe("groupReport forecast", () => {
  it("converts future rows at today's rate (or the latest earlier one within 7 days)", async () => {
    const rows = new Map<string, ForecastEntry[]>([
      [alpha.id, [{ date: "2026-12-01", currency: "NOK", amount: "1150.00" }]],
      [beta.id, [{ date: "2026-12-01", currency: "USD", amount: "125.00" }]],
    ]);
    const r = await groupReport({
      kind: "forecast",
      companies: [alpha, beta],
      reportingCurrency: "EUR",
      today: TODAY,
      read: async (c) => rows.get(c.id) ?? [],
      loadRates,
    });
    // USD 125 / 1.25 (rate of today) = 100.00; NOK 1150 / 11.5 (rate of 11-20, stale) = 100.00.
    expect(r.total).toEqual({ amount: "200.00" });
    expect(r.endDate).toBe("2026-12-01");
    expect(r.lines.map((l) => [l.currency, l.rateDate, l.staleRate])).toEqual([
      ["NOK", "2026-11-20", true],
      ["USD", "2026-11-23", false],
    ]);
  });
});
