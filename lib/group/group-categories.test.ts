import { describe, expect, it } from "vitest";
import type { CategoryRule } from "../categories/rules";
import type { Company } from "@treasury/contract";
import { FxRates } from "../fx/convert";
import Decimal from "decimal.js";
import { allocate, bookingDate, groupCashflowByCategory, type GroupCategoryTransaction } from "./group-categories";
import { groupReport } from "./group-reports";
import { testRule } from "../categories/testing";
import { recordingRates, testCompany } from "./testing";

const company = testCompany;

// EUR reference rates: 1 EUR = rate quote. 2026-11-20 is a Friday, 2026-11-21 a Saturday (no rate).
const RATES = new FxRates([
  { date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.2000" },
  { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.5000" },
  { date: "2026-11-20", base: "EUR", quote: "DKK", rate: "2.0000" },
  // 10 days before the GBP transaction: too old to use.
  { date: "2026-11-10", base: "EUR", quote: "GBP", rate: "0.8800" },
]);

const rule = (position: number, category: string, extra: Partial<CategoryRule>): CategoryRule =>
  testRule(position, { category, ...extra });
// Given out of order: position decides (Payroll is tried first).
const RULES = [
  rule(2, "Sales", { counterparty_contains: "kunde" }),
  rule(1, "Payroll", { counterparty_contains: "payroll", direction: "debit" }),
];

const tx = (
  direction: "credit" | "debit",
  amount: string,
  currency: string,
  booked_at: string,
  counterparty_name: string,
  booked_date?: string,
): GroupCategoryTransaction => ({
  direction,
  amount,
  currency,
  booked_at,
  counterparty_name,
  remittance: "",
  ...(booked_date ? { booked_date } : {}),
});

const alpha = company("Alpha AS");
const beta = company("Beta AB");
const gamma = company("Gamma Oy");

const TXS = new Map<string, GroupCategoryTransaction[]>([
  [
    alpha.id,
    [
      tx("credit", "1150.00", "NOK", "2026-11-20T10:00:00+01:00", "Kunde AS"),
      tx("debit", "230.50", "NOK", "2026-11-20T11:00:00+01:00", "Kunde AS"), // a refund: Sales' outflow
      tx("debit", "460.00", "NOK", "2026-11-20T12:00:00+01:00", "Payroll Services AS"),
      // The bank's booking date wins over the timestamp's date.
      tx("credit", "50.00", "EUR", "2026-11-20T00:30:00+01:00", "Kunde GmbH", "2026-11-19"),
      // Saturday: Friday's rate, marked stale.
      tx("credit", "11.50", "NOK", "2026-11-21T09:00:00+01:00", "Renter"),
      tx("debit", "23.00", "NOK", "2026-11-21T09:30:00+01:00", "Kiosk"),
    ],
  ],
  [
    beta.id,
    [
      tx("credit", "120.00", "USD", "2026-11-20T15:00:00+01:00", "Kunde Inc"),
      tx("debit", "60.00", "USD", "2026-11-20T15:30:00+01:00", "PAYROLL Co"),
      // 20.25 DKK / 2 = 10.125 EUR: half to even gives 10.12 (half up would give 10.13).
      tx("credit", "20.25", "DKK", "2026-11-20T16:00:00+01:00", "Kunde ApS"),
      tx("credit", "10.00", "GBP", "2026-11-20T16:30:00+01:00", "Kunde Ltd"),
    ],
  ],
]);

const read = async (c: Company) => {
  if (c.id === gamma.id) throw new Error("upstream 503");
  return { transactions: TXS.get(c.id) ?? [], truncated: false };
};

describe("groupCashflowByCategory", () => {
  it("sums every company per category in EUR with a per-company breakdown (hand-computed)", async () => {
    const { asked, loadRates } = recordingRates(RATES);
    const r = await groupCashflowByCategory({
      companies: [alpha, beta, gamma],
      reportingCurrency: "EUR",
      from: "2026-11-01",
      to: "2026-11-23",
      rules: RULES,
      read,
      loadRates,
    });
    expect(asked).toEqual([{ currencies: ["NOK", "EUR", "USD", "DKK", "GBP"], from: "2026-11-19", to: "2026-11-21" }]);

    // Payroll: 460 NOK / 11.5 = 40.00; 60 USD / 1.2 = 50.00.
    // Sales: Alpha 1150 / 11.5 = 100.00 in, 230.50 / 11.5 = 20.0434… → 20.04 out, 50.00 EUR in;
    //        Beta 120 / 1.2 = 100.00 in, 20.25 / 2 = 10.125 → 10.12 in, 10 GBP unconverted (rate 10 days old).
    // Uncategorised: Alpha 11.50 / 11.5 = 1.00 in, 23 / 11.5 = 2.00 out (Friday's rate).
    expect(r.categories.map((c) => [c.category, c.count, c.figures, c.unconverted])).toEqual([
      ["Payroll", 2, { inflow: "0.00", outflow: "90.00", net: "-90.00" }, 0],
      ["Sales", 6, { inflow: "260.12", outflow: "20.04", net: "240.08" }, 1],
      ["Uncategorised", 2, { inflow: "1.00", outflow: "2.00", net: "-1.00" }, 0],
    ]);
    const sales = r.categories[1];
    expect(sales?.byCompany).toEqual([
      {
        id: alpha.id,
        name: "Alpha AS",
        count: 3,
        figures: { inflow: "150.00", outflow: "20.04", net: "129.96" },
        unconverted: 0,
      },
      {
        id: beta.id,
        name: "Beta AB",
        count: 3,
        figures: { inflow: "110.12", outflow: "0.00", net: "110.12" },
        unconverted: 1,
      },
    ]);
    expect(r.categories[2]?.byCompany.map((c) => c.name)).toEqual(["Alpha AS"]);
    expect(r.companies.map((c) => [c.name, c.count, c.figures, c.unconverted])).toEqual([
      ["Alpha AS", 6, { inflow: "151.00", outflow: "62.04", net: "88.96" }, 0],
      ["Beta AB", 4, { inflow: "110.12", outflow: "50.00", net: "60.12" }, 1],
    ]);
    expect(r.total).toEqual({ inflow: "261.12", outflow: "112.04", net: "149.08" });
    expect(r.failedCompanies).toEqual([{ id: gamma.id, name: "Gamma Oy", message: "upstream 503" }]);
    expect(r.truncatedCompanies).toEqual([]);
    expect(r.unconverted).toEqual([{ currency: "GBP", lines: 1 }]);
    expect(r.oldestRateDate).toBe("2026-11-20");
    expect(r.staleRateLines).toBe(1);
  });

  it("keeps every line with its original and converted figures, rate and rate date", async () => {
    const r = await groupCashflowByCategory({
      companies: [alpha, beta],
      reportingCurrency: "EUR",
      from: "2026-11-01",
      to: "2026-11-23",
      rules: RULES,
      read,
      loadRates: async () => RATES,
    });
    const brief = r.lines.map((l) => [
      l.companyName,
      l.category,
      l.date,
      l.currency,
      l.count,
      l.original.net,
      l.converted?.net ?? null,
      l.rate,
      l.rateDate,
      l.staleRate,
      l.unconvertedReason,
    ]);
    expect(brief).toEqual([
      ["Alpha AS", "Payroll", "2026-11-20", "NOK", 1, "-460.00", "-40.00", "0.08695652174", "2026-11-20", false, null],
      ["Beta AB", "Payroll", "2026-11-20", "USD", 1, "-60.00", "-50.00", "0.8333333333", "2026-11-20", false, null],
      ["Alpha AS", "Sales", "2026-11-19", "EUR", 1, "50.00", "50.00", "1", "2026-11-19", false, null],
      ["Alpha AS", "Sales", "2026-11-20", "NOK", 2, "919.50", "79.96", "0.08695652174", "2026-11-20", false, null],
      ["Beta AB", "Sales", "2026-11-20", "DKK", 1, "20.25", "10.12", "0.5", "2026-11-20", false, null],
      ["Beta AB", "Sales", "2026-11-20", "GBP", 1, "10.00", null, null, null, false, "rate_too_old"],
      ["Beta AB", "Sales", "2026-11-20", "USD", 1, "120.00", "100.00", "0.8333333333", "2026-11-20", false, null],
      [
        "Alpha AS",
        "Uncategorised",
        "2026-11-21",
        "NOK",
        2,
        "-11.50",
        "-1.00",
        "0.08695652174",
        "2026-11-20",
        true,
        null,
      ],
    ]);
    // The converted net of a line is converted inflow − converted outflow (100.00 − 20.04), not 919.50 / 11.5.
    expect(r.lines[3]?.original).toEqual({ inflow: "1150.00", outflow: "230.50", net: "919.50" });
    expect(r.lines[3]?.converted).toEqual({ inflow: "100.00", outflow: "20.04", net: "79.96" });
  });

  it("converts into NOK across EUR; a truncated read is named; no transactions means no rate read", async () => {
    const r = await groupCashflowByCategory({
      companies: [beta],
      reportingCurrency: "NOK",
      from: "2026-11-20",
      to: "2026-11-20",
      rules: [],
      read: async () => ({
        transactions: [tx("credit", "120.00", "USD", "2026-11-20T15:00:00+01:00", "X")],
        truncated: true,
      }),
      loadRates: async () => RATES,
    });
    // 120 USD × 11.5 / 1.2 = 1150.00 NOK.
    expect(r.total).toEqual({ inflow: "1150.00", outflow: "0.00", net: "1150.00" });
    expect(r.categories.map((c) => c.category)).toEqual(["Uncategorised"]);
    expect(r.lines[0]?.rate).toBe("9.583333333");
    expect(r.truncatedCompanies).toEqual([{ id: beta.id, name: "Beta AB" }]);

    let loaded = false;
    const empty = await groupCashflowByCategory({
      companies: [alpha],
      reportingCurrency: "EUR",
      from: "2026-11-20",
      to: "2026-11-20",
      rules: RULES,
      read: async () => ({ transactions: [], truncated: false }),
      loadRates: async () => {
        loaded = true;
        return RATES;
      },
    });
    expect(loaded).toBe(false);
    expect(empty.categories).toEqual([]);
    expect(empty.companies).toEqual([
      {
        id: alpha.id,
        name: "Alpha AS",
        count: 0,
        figures: { inflow: "0.00", outflow: "0.00", net: "0.00" },
        unconverted: 0,
      },
    ]);
    expect(empty.total).toEqual({ inflow: "0.00", outflow: "0.00", net: "0.00" });
  });

  it("refuses a malformed reporting currency before any read", async () => {
    let reads = 0;
    await expect(
      groupCashflowByCategory({
        companies: [alpha],
        reportingCurrency: "eur",
        from: "2026-11-20",
        to: "2026-11-20",
        rules: RULES,
        read: async () => {
          reads++;
          return { transactions: [], truncated: false };
        },
        loadRates: async () => RATES,
      }),
    ).rejects.toThrow();
    expect(reads).toBe(0);
  });

  it("takes the bank's booking date, else the timestamp's own date", () => {
    expect(bookingDate({ booked_at: "2026-11-20T23:30:00-05:00" })).toBe("2026-11-20");
    expect(bookingDate({ booked_at: "2026-11-20T23:30:00-05:00", booked_date: "2026-11-21" })).toBe("2026-11-21");
  });
});

describe("one figure, one number", () => {
  it("the category table's total equals the group cashflow report's summary to the cent", async () => {
    // Three categories on one NOK day: converted one by one they round to 0.87 + 0.87 + 0.87 = 2.61 EUR in, while
    // the day (the report's row) is 30.00 NOK / 11.5 = 2.6086… → 2.61; outflows 3 × 0.0434… → 0.04 each = 0.12,
    // while the day's 1.50 NOK / 11.5 = 0.1304… → 0.13. The table must say 0.13, as the report does.
    const delta = company("Delta AS");
    const day = "2026-11-20T10:00:00+01:00";
    const txs = [
      tx("credit", "10.00", "NOK", day, "Kunde A"),
      tx("credit", "10.00", "NOK", day, "Payroll refund"),
      tx("credit", "10.00", "NOK", day, "Renter"),
      tx("debit", "0.50", "NOK", day, "Kunde B"),
      tx("debit", "0.50", "NOK", day, "Payroll X"),
      tx("debit", "0.50", "NOK", day, "Kiosk"),
    ];
    const cats = await groupCashflowByCategory({
      companies: [delta],
      reportingCurrency: "EUR",
      from: "2026-11-20",
      to: "2026-11-20",
      rules: RULES,
      read: async () => ({ transactions: txs, truncated: false }),
      loadRates: async () => RATES,
    });
    expect(cats.categories.map((c) => c.category)).toEqual(["Payroll", "Sales", "Uncategorised"]);
    // The report reads the API's cashflow row of that day: the same transactions summed.
    const report = await groupReport({
      kind: "cashflow",
      companies: [delta],
      reportingCurrency: "EUR",
      today: "2026-11-23",
      read: async () => [{ date: "2026-11-20", currency: "NOK", inflow: "30.00", outflow: "1.50", net: "28.50" }],
      loadRates: async () => RATES,
    });
    expect(report.total).toEqual({ inflow: "2.61", outflow: "0.13", net: "2.48" });
    expect(cats.total).toEqual(report.total);
    // Each line still adds up, and the categories sum to the total.
    for (const l of cats.lines)
      expect(new Decimal(l.converted?.inflow ?? "0").minus(l.converted?.outflow ?? "0").toFixed(2)).toBe(
        l.converted?.net,
      );
    const sum = (k: "inflow" | "outflow") =>
      cats.categories.reduce((a, c) => a.plus(c.figures[k]), new Decimal(0)).toFixed(2);
    expect([sum("inflow"), sum("outflow")]).toEqual(["2.61", "0.13"]);
  });

  it("allocate splits a total exactly in proportion, largest remainder first", () => {
    const d = (x: string) => new Decimal(x);
    expect(allocate("0.13", [d("0.5"), d("0.5"), d("0.5")], 2)).toEqual(["0.05", "0.04", "0.04"]);
    expect(allocate("100.00", [d("1"), d("2"), d("1")], 2)).toEqual(["25.00", "50.00", "25.00"]);
    expect(allocate("0.00", [d("0"), d("0")], 2)).toEqual(["0.00", "0.00"]);
    expect(allocate("5", [d("1"), d("1")], 0)).toEqual(["3", "2"]);
  });
});
