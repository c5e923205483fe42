import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import type { Account, BalanceSnapshot, Company } from "@treasury/contract";
import { FxRates } from "../fx/convert";
import { groupPosition, headlineBalance, type GroupSource } from "./group-position";
import { recordingRates, testCompany, testId } from "./testing";

const TODAY = "2026-11-23"; // a Monday

const uuid = testId;
const company = testCompany;
const account = (c: Company, name: string, currency: string, bank: string): Account => ({
  id: uuid(),
  name,
  currency,
  iban_masked: "NO93****1234",
  bank_name: bank,
  company_id: c.id,
});
const snap = (a: Account, type: BalanceSnapshot["balance_type"], date: string, balance: string): BalanceSnapshot => ({
  id: uuid(),
  account_id: a.id,
  balance_type: type,
  as_of_date: date,
  balance,
  currency: a.currency,
});

// EUR reference rates: 1 EUR = rate quote.
const RATES = new FxRates([
  { date: "2026-11-14", base: "EUR", quote: "USD", rate: "1.1000" },
  { date: "2026-11-14", base: "EUR", quote: "NOK", rate: "11.4000" },
  { date: "2026-11-20", base: "EUR", quote: "USD", rate: "1.2000" },
  { date: "2026-11-23", base: "EUR", quote: "USD", rate: "1.2500" },
  { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.5000" },
  { date: "2026-11-20", base: "EUR", quote: "SEK", rate: "11.0000" },
  // 12 days before the GBP balance: too old to use.
  { date: "2026-11-10", base: "EUR", quote: "GBP", rate: "0.8800" },
]);

const alpha = company("Alpha AS");
const beta = company("Beta AB");
const gamma = company("Gamma Oy");
const hidden = company("Hidden Holding");

const a1 = account(alpha, "Alpha NOK", "NOK", "DNB");
const a2 = account(alpha, "Alpha EUR", "EUR", "Nordea");
const a3 = account(alpha, "Alpha GBP", "GBP", "DNB");
const b4 = account(beta, "Beta SEK", "SEK", "Nordea");
const b5 = account(beta, "Beta USD", "USD", "SEB");
const b6 = account(beta, "Beta NOK (new)", "NOK", "DNB");
const g7 = account(gamma, "Gamma EUR", "EUR", "OP");
const h8 = account(hidden, "Hidden EUR", "EUR", "DNB");

const ACCOUNTS = new Map<string, Account[]>([
  [alpha.id, [a1, a2, a3]],
  [beta.id, [b4, b5, b6]],
  [gamma.id, [g7]],
  [hidden.id, [h8]],
]);
const BALANCES = new Map<string, BalanceSnapshot[]>([
  [
    a1.id,
    [
      snap(a1, "closing_booked", "2026-11-21", "1000.00"),
      snap(a1, "closing_booked", "2026-11-22", "1150.00"),
      snap(a1, "interim_booked", "2026-11-23", "2300.00"),
    ],
  ],
  [
    a2.id,
    [
      snap(a2, "closing_booked", "2026-11-22", "500.50"),
      // A closing for a day that has not ended is ignored.
      snap(a2, "closing_booked", "2026-11-23", "999.00"),
      snap(a2, "closing_available", "2026-11-22", "400.00"),
    ],
  ],
  [a3.id, [snap(a3, "closing_booked", "2026-11-22", "100.00")]],
  [b4.id, [snap(b4, "closing_booked", "2026-11-21", "900.00"), snap(b4, "closing_booked", "2026-11-22", "1000.00")]],
  [b5.id, [snap(b5, "closing_booked", "2026-11-19", "100.00")]],
  [b6.id, []],
  [g7.id, [snap(g7, "closing_booked", "2026-11-22", "7000.00")]],
  [h8.id, [snap(h8, "closing_booked", "2026-11-22", "1000000.00")]],
]);

function fakeSource(opts: { failBalancesOf?: string; delayMs?: number } = {}) {
  const calls: { what: string; companyId: string; from?: string; to?: string }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const enter = async () => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
    inFlight--;
  };
  const source: GroupSource = {
    async listAccounts(c) {
      calls.push({ what: "accounts", companyId: c.id });
      await enter();
      return ACCOUNTS.get(c.id) ?? [];
    },
    async listBalances(c, a, from, to) {
      calls.push({ what: "balances", companyId: c.id, from, to });
      await enter();
      if (c.id === opts.failBalancesOf) throw new Error("The Treasury API answered 503");
      return (BALANCES.get(a.id) ?? []).filter((b) => b.as_of_date >= from && b.as_of_date <= to);
    },
  };
  return { source, calls, maxInFlight: () => maxInFlight };
}

describe("headlineBalance", () => {
  it("takes today's interim booked over yesterday's closing", () => {
    expect(headlineBalance(BALANCES.get(a1.id) ?? [], TODAY)).toEqual({
      balance: "2300.00",
      currency: "NOK",
      asOfDate: "2026-11-23",
      basis: "interim_booked",
    });
  });

  it("ignores a closing of today and an interim of an earlier day", () => {
    const snaps = [
      snap(a2, "closing_booked", "2026-11-21", "10.00"),
      snap(a2, "interim_booked", "2026-11-22", "20.00"),
      snap(a2, "closing_booked", "2026-11-23", "30.00"),
      snap(a2, "interim_available", "2026-11-23", "40.00"),
    ];
    expect(headlineBalance(snaps, TODAY)).toMatchObject({ balance: "10.00", basis: "closing_booked" });
    expect(headlineBalance([], TODAY)).toBeNull();
  });
});

describe("groupPosition", () => {
  it(
    "converts each account's headline into EUR and adds up by company, bank and currency " + "(hand-computed)",
    async () => {
      const { source, calls } = fakeSource({ failBalancesOf: gamma.id });
      const { asked: loads, loadRates } = recordingRates(RATES);
      const p = await groupPosition({
        companies: [alpha, beta, gamma],
        reportingCurrency: "EUR",
        today: TODAY,
        source,
        loadRates,
      });
      // Companies not passed in are never read.
      expect(calls.some((c) => c.companyId === hidden.id)).toBe(false);
      expect(calls.filter((c) => c.what === "balances").every((c) => c.from === "2026-11-16" && c.to === TODAY)).toBe(
        true,
      );
      expect(loads).toEqual([{ currencies: ["NOK", "EUR", "GBP", "SEK", "USD"], from: "2026-11-19", to: TODAY }]);

      // 2300 NOK / 11.5 = 200.00; 500.50 EUR as is; 1000 SEK / 11 = 90.909… → 90.91; 100 USD / 1.1 = 90.909…
      // → 90.91.
      expect(p.total).toEqual({
        converted: "882.32",
        unconverted: [{ currency: "GBP", total: "100.00" }],
        accounts: 6,
        oldestRateDate: "2026-11-14",
        flagged: { stale_rate: 3, unconverted: 1, stale_balance: 1, no_balance: 1 },
        // NOK: 2300 / 11.5 − 1150 / 11.5 = 100.00; SEK: 1000 / 11 − 900 / 11 = 90.91 − 81.82 = 9.09.
        change: "109.09",
      });
      expect(p.basis).toEqual({ closingDate: "2026-11-22", closingCount: 4, interimCount: 1 });
      expect(p.failedCompanies).toEqual([{ id: gamma.id, name: "Gamma Oy", message: "The Treasury API answered 503" }]);
      expect(p.companyCount).toBe(2);

      expect(p.byCompany.map((g) => [g.label, g.converted, g.unconverted, g.accounts, g.change])).toEqual([
        ["Alpha AS", "700.50", [{ currency: "GBP", total: "100.00" }], 3, "100.00"],
        ["Beta AB", "181.82", [], 3, "9.09"],
      ]);
      expect(p.byBank.map((g) => [g.label, g.converted, g.accounts])).toEqual([
        ["Nordea", "591.41", 2],
        ["DNB", "200.00", 3],
        ["SEB", "90.91", 1],
      ]);
      expect(p.byCurrency.map((g) => [g.key, g.converted, g.original])).toEqual([
        ["EUR", "500.50", "500.50"],
        ["NOK", "200.00", "2300.00"],
        ["SEK", "90.91", "1000.00"],
        ["USD", "90.91", "100.00"],
        ["GBP", "0.00", "100.00"],
      ]);

      const line = (id: string) => p.accounts.find((a) => a.accountId === id);
      expect(line(a1.id)).toMatchObject({
        balance: "2300.00",
        basis: "interim_booked",
        asOfDate: TODAY,
        flags: ["stale_rate"],
        previous: { balance: "1150.00", asOfDate: "2026-11-22" },
        change: "100.00",
        conversion: {
          status: "converted",
          value: "200.00",
          rateDate: "2026-11-20",
          stale: true,
          rate: "0.08695652174",
        },
      });
      // No earlier closing in the window: no change.
      expect(line(a2.id)).toMatchObject({ balance: "500.50", basis: "closing_booked", flags: [], change: null });
      // The GBP rate is 12 days older than the balance: unconverted and flagged, never dropped.
      expect(line(a3.id)).toMatchObject({
        flags: ["unconverted"],
        conversion: {
          status: "unconverted",
          reason: "rate_too_old",
          amount: "100.00",
          missing: [{ currency: "GBP", latestRateDate: "2026-11-10" }],
        },
      });
      expect(line(b5.id)?.flags).toEqual(["stale_balance", "stale_rate"]);
      expect(line(b6.id)).toMatchObject({ balance: null, basis: null, conversion: null, flags: ["no_balance"] });
      expect(line(g7.id)).toBeUndefined();
    },
  );

  it("gives other figures in another reporting currency (NOK, cross rates via EUR)", async () => {
    const p = await groupPosition({
      companies: [alpha, beta],
      reportingCurrency: "NOK",
      today: TODAY,
      source: fakeSource().source,
      loadRates: async () => RATES,
    });
    // 2300.00 NOK as is; 500.50 × 11.5 = 5755.75; 1000 × 11.5 / 11 = 1045.4545… → 1045.45;
    // 100 USD dated 19 Nov: 100 × 11.4 / 1.1 = 1036.3636… → 1036.36.
    expect(p.total.converted).toBe("10137.56");
    expect(p.byCompany.map((g) => [g.label, g.converted])).toEqual([
      ["Alpha AS", "8055.75"],
      ["Beta AB", "2081.81"],
    ]);
    expect(p.failedCompanies).toEqual([]);
  });

  it("names a company whose account list fails and keeps the others", async () => {
    const { source } = fakeSource();
    const failing: GroupSource = {
      listAccounts: (c) => (c.id === beta.id ? Promise.reject(new Error("timeout")) : source.listAccounts(c)),
      listBalances: source.listBalances,
    };
    const p = await groupPosition({
      companies: [alpha, beta],
      reportingCurrency: "EUR",
      today: TODAY,
      source: failing,
      loadRates: async () => RATES,
    });
    expect(p.failedCompanies.map((f) => f.name)).toEqual(["Beta AB"]);
    expect(p.byCompany.map((g) => g.label)).toEqual(["Alpha AS"]);
    expect(p.total.converted).toBe("700.50");
  });

  it("keeps at most `concurrency` reads in flight", async () => {
    const { source, maxInFlight } = fakeSource({ delayMs: 5 });
    await groupPosition({
      companies: [alpha, beta, gamma],
      reportingCurrency: "EUR",
      today: TODAY,
      source,
      loadRates: async () => RATES,
      concurrency: 2,
    });
    expect(maxInFlight()).toBe(2);
  });

  it("reads no rates when no account has a balance, and refuses a malformed reporting currency", async () => {
    let loaded = false;
    const p = await groupPosition({
      companies: [],
      reportingCurrency: "EUR",
      today: TODAY,
      source: fakeSource().source,
      loadRates: async () => {
        loaded = true;
        return RATES;
      },
    });
    expect(loaded).toBe(false);
    expect(p.total).toMatchObject({ converted: "0.00", accounts: 0 });
    await expect(
      groupPosition({
        companies: [alpha],
        reportingCurrency: "eur",
        today: TODAY,
        source: fakeSource().source,
        loadRates: async () => RATES,
      }),
    ).rejects.toThrow(/currency code/);
  });
});

describe("groupPosition statement gaps", () => {
  it("flags a missing or partial statement in the last 7 completed days; a failed read flags none", async () => {
    const { source } = fakeSource();
    const week = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"];
    const windows: string[] = [];
    const withCoverage: GroupSource = {
      ...source,
      async listCoverage(_c, a, from, to) {
        windows.push(`${from}..${to}`);
        if (a.id === a2.id) throw new Error("coverage unavailable");
        const days = week.map((date) => ({
          id: `${a.id}-${date}`,
          account_id: a.id,
          date,
          source: "camt.053" as const,
          completeness: "complete" as const,
        }));
        // a1: 19 Nov has no statement row at all; b4: 20 Nov partial; the rest complete.
        if (a.id === a1.id) return days.filter((d) => d.date !== "2026-11-19");
        if (a.id === b4.id) return days.map((d) => (d.date === "2026-11-20" ? { ...d, completeness: "partial" } : d));
        return days;
      },
    };
    const p = await groupPosition({
      companies: [alpha, beta],
      reportingCurrency: "EUR",
      today: TODAY,
      source: withCoverage,
      loadRates: async () => RATES,
    });
    const gaps = p.accounts.filter((a) => a.flags.includes("statement_gap")).map((a) => a.accountName);
    expect(gaps.sort()).toEqual(["Alpha NOK", "Beta SEK"]);
    expect(p.total.flagged.statement_gap).toBe(2);
    expect(p.failedCompanies).toEqual([]);
    expect(new Set(windows)).toEqual(new Set(["2026-11-16..2026-11-22"]));
  });
});

describe("groupPosition koncern grouping", () => {
  it("groups by the koncern structure given; companies in none fall under 'Not in a koncern'", async () => {
    const p = await groupPosition({
      companies: [alpha, beta, gamma],
      reportingCurrency: "EUR",
      today: TODAY,
      source: fakeSource().source,
      loadRates: async () => RATES,
      koncerner: [{ id: "k1", name: "Nordlys", companyIds: [alpha.id, beta.id] }],
    });
    const byKey = new Map(p.byKoncern.map((g) => [g.key, g]));
    expect([...byKey.keys()].sort()).toEqual(["k1", "none"]);
    const alphaBeta = p.byCompany.filter((g) => g.key !== gamma.id);
    const sum = alphaBeta.reduce((s, g) => s.plus(g.converted), new Decimal(0));
    expect(byKey.get("k1")?.converted).toBe(sum.toFixed(2));
    expect(byKey.get("none")?.converted).toBe(p.byCompany.find((g) => g.key === gamma.id)?.converted);
    expect(byKey.get("none")?.label).toBe("Not in a koncern");
    expect(p.accounts.find((a) => a.companyId === alpha.id)?.koncernName).toBe("Nordlys");
    const none = await groupPosition({
      companies: [alpha],
      reportingCurrency: "EUR",
      today: TODAY,
      source: fakeSource().source,
      loadRates: async () => RATES,
    });
    expect(none.byKoncern).toEqual([]);
  });
});
