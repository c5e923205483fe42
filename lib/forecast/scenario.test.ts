import { describe, expect, it } from "vitest";
import { bucket } from "./engine";
import { applyScenario, balances } from "./scenario";
import { manualFlow } from "./testing";
import type { Flow } from "./types";

const flow = (date: string, amount: string, category: string, company = "A", currency = "EUR"): Flow =>
  manualFlow(date, amount, category, company, currency);

// Worked by hand in docs/forecast.md#a-worked-example.
const base: Flow[] = [
  flow("2026-01-02", "500.00", "customers"),
  flow("2026-01-05", "-1200.00", "payroll"),
  flow("2026-01-08", "300.00", "customers"),
  flow("2026-01-03", "-50.00", "fees", "B", "USD"),
];
const range = { from: "2026-01-01", to: "2026-01-20" };
const openings = [
  { company: "A", currency: "EUR", amount: "1000.00" },
  { company: "B", currency: "USD", amount: "100.00" },
];
const fx = { USD: { rate: "0.9", date: "2026-01-01" } };

describe("scenario arithmetic", () => {
  it("base case: lowest balance per currency, per company and in EUR", () => {
    const s = balances({ flows: base, openings, ...range, reportingCurrency: "EUR", fx, thresholds: { A: "0" } });
    // A: 1000 → 1500 (2 Jan) → 300 (5 Jan) → 600 (8 Jan). B: 100 → 50 (3 Jan) USD = 45 EUR.
    expect(s.byCurrency).toEqual([
      { currency: "EUR", opening: "1000", closing: "600", lowest: { amount: "300", date: "2026-01-05" } },
      { currency: "USD", opening: "100", closing: "50", lowest: { amount: "50", date: "2026-01-03" } },
    ]);
    // EUR total: 1 Jan 1000 + 90 = 1090; 2 Jan 1590; 3 Jan 1545; 5 Jan 345; 8 Jan 645.
    expect(s.reporting).toMatchObject({
      opening: "1090.00",
      closing: "645.00",
      lowest: { amount: "345.00", date: "2026-01-05" },
    });
    expect(s.breaches).toEqual([]);
  });

  it("customers pay 10 days later: the low moves and the threshold is breached", () => {
    const { flows, fx: rates } = applyScenario(
      base,
      [{ type: "shift", filter: { category: "customers" }, days: 10 }],
      range,
      fx,
    );
    expect(flows.filter((f) => f.category === "customers").map((f) => f.date)).toEqual(["2026-01-12", "2026-01-18"]);
    const s = balances({
      flows,
      openings,
      ...range,
      reportingCurrency: "EUR",
      fx: rates,
      thresholds: { A: "0", B: "10" },
    });
    // A: 1000 → -200 (5 Jan) → 300 (12 Jan) → 600 (18 Jan).
    expect(s.byCompany[0]).toMatchObject({
      company: "A",
      lowest: { amount: "-200", date: "2026-01-05" },
      closing: "600",
    });
    // EUR: 5 Jan -200 + 45 = -155.
    expect(s.reporting.lowest).toEqual({ amount: "-155.00", date: "2026-01-05" });
    expect(s.breaches).toEqual([
      { company: "A", threshold: "0", lowest: { amount: "-200.00", date: "2026-01-05" }, first_breach: "2026-01-05" },
    ]);
  });

  it("± %, drop, add and a different FX rate", () => {
    const { flows, fx: rates } = applyScenario(
      base,
      [
        { type: "percent", filter: { category: "customers", from: "2026-01-06" }, percent: "-10" },
        { type: "drop", filter: { category: "payroll" } },
        { type: "add", flow: { date: "2026-01-10", amount: "-99.99", currency: "EUR", company: "A", category: "tax" } },
        { type: "add", flow: { date: "2027-01-10", amount: "-1", currency: "EUR", company: "A", category: "tax" } },
        { type: "fx", currency: "USD", rate: "0.8" },
      ],
      range,
      fx,
    );
    expect(flows.map((f) => [f.date, f.amount])).toEqual([
      ["2026-01-02", "500.00"],
      ["2026-01-03", "-50.00"],
      ["2026-01-08", "270.00"],
      ["2026-01-10", "-99.99"],
    ]);
    const s = balances({ flows, openings, ...range, reportingCurrency: "EUR", fx: rates });
    // A closes 1000 + 500 + 270 - 99.99 = 1670.01; B 50 USD × 0.8 = 40.
    expect(s.reporting.closing).toBe("1710.01");
    expect(s.reporting.opening).toBe("1080.00");
  });

  it("a shift beyond a year is refused; a currency without a rate is named", () => {
    expect(() => applyScenario(base, [{ type: "shift", filter: {}, days: 400 }], range)).toThrow(RangeError);
    const s = balances({ flows: base, openings, ...range, reportingCurrency: "EUR", fx: {} });
    expect(s.reporting.missing_rates).toEqual(["USD"]);
  });

  it("weekly buckets sum companies into one group row when asked", () => {
    const rows = bucket(base, "2026-01-01", "week", "group");
    expect(rows.map((r) => [r.start, r.company, r.currency, r.category, r.amount])).toEqual([
      ["2026-01-01", "group", "EUR", "customers", "500"],
      ["2026-01-01", "group", "EUR", "payroll", "-1200"],
      ["2026-01-01", "group", "USD", "fees", "-50"],
      ["2026-01-08", "group", "EUR", "customers", "300"],
    ]);
  });

  it("weekly buckets sum exactly", () => {
    const rows = bucket(
      [...base, flow("2026-01-07", "0.10", "customers"), flow("2026-01-07", "0.20", "customers")],
      "2026-01-01",
      "week",
    );
    expect(rows.map((r) => [r.start, r.end, r.company, r.category, r.amount])).toEqual([
      ["2026-01-01", "2026-01-07", "A", "customers", "500.3"],
      ["2026-01-01", "2026-01-07", "A", "payroll", "-1200"],
      ["2026-01-01", "2026-01-07", "B", "fees", "-50"],
      ["2026-01-08", "2026-01-14", "A", "customers", "300"],
    ]);
  });
});
