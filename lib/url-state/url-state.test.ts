import { describe, expect, it } from "vitest";
import { createSerializer } from "nuqs/server";
import { daysInRange, dateRangeParsers, loadDateRange, resolveDateRange } from "./date-range";
import { loadAccountFilters, loadTransactionFilters, matchesText, sortToState, stateToSort } from "./filters";
import { isIsoDate } from "./parsers";

describe("business dates in the URL", () => {
  it("accepts only existing YYYY-MM-DD dates", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2026-13-01")).toBe(false);
    expect(isIsoDate("2026-1-01")).toBe(false);
    expect(isIsoDate("2026-01-10T00:00:00Z")).toBe(false);
  });

  it("loads a range from search params and drops bad values", () => {
    expect(loadDateRange({ range: "90d", from: "2026-01-01", to: "nope" })).toEqual({
      range: "90d",
      from: "2026-01-01",
      to: null,
    });
    expect(loadDateRange({ range: "weekly" })).toEqual({ range: null, from: null, to: null });
    expect(loadDateRange(new URLSearchParams("from=2026-03-01&to=2026-03-31"))).toEqual({
      range: null,
      from: "2026-03-01",
      to: "2026-03-31",
    });
  });

  it("serializes back to the same strings (no Date round trip)", () => {
    const ser = createSerializer(dateRangeParsers);
    expect(ser({ range: "custom", from: "2026-01-01", to: "2026-01-31" })).toBe(
      "?range=custom&from=2026-01-01&to=2026-01-31",
    );
  });
});

describe("resolveDateRange", () => {
  const today = "2026-03-15";
  it.each([
    ["month", "2026-03-01"],
    ["30d", "2026-02-14"],
    ["90d", "2025-12-16"],
    ["ytd", "2026-01-01"],
  ] as const)("resolves the %s preset to inclusive dates from %s", (range, from_date) => {
    expect(resolveDateRange({ range }, today)).toEqual({ preset: range, from_date, to_date: today });
  });

  it("counts the days of the 30d and 90d presets inclusively", () => {
    expect(daysInRange(resolveDateRange({ range: "30d" }, today))).toBe(30);
    expect(daysInRange(resolveDateRange({ range: "90d" }, today))).toBe(90);
  });

  it("handles custom ranges: open ends, reversed pairs, nothing given", () => {
    expect(resolveDateRange({ range: "custom", from: "2026-01-01", to: "2026-01-31" }, today)).toMatchObject({
      from_date: "2026-01-01",
      to_date: "2026-01-31",
    });
    expect(resolveDateRange({ from: "2026-03-10" }, today)).toEqual({
      preset: "custom",
      from_date: "2026-03-10",
      to_date: today,
    });
    expect(resolveDateRange({ to: "2026-02-01" }, today)).toEqual({
      preset: "custom",
      from_date: "2026-02-01",
      to_date: "2026-02-01",
    });
    expect(resolveDateRange({ range: "custom", from: "2026-02-10", to: "2026-02-01" }, today)).toMatchObject({
      from_date: "2026-02-01",
      to_date: "2026-02-10",
    });
    expect(resolveDateRange({ range: "custom" }, today, "month")).toEqual({
      preset: "month",
      from_date: "2026-03-01",
      to_date: today,
    });
    expect(resolveDateRange({}, today)).toMatchObject({ preset: "30d" });
  });

  it("crosses month and leap-year boundaries on the calendar, not the clock", () => {
    // 29 February 2024 exists, so 30 days back from 1 March is 1 February.
    expect(resolveDateRange({ range: "30d" }, "2024-03-01")).toMatchObject({ from_date: "2024-02-01" });
    expect(resolveDateRange({ range: "month" }, "2026-01-01")).toMatchObject({
      from_date: "2026-01-01",
      to_date: "2026-01-01",
    });
  });

  it("refuses a bad today", () => {
    expect(() => resolveDateRange({}, "15/03/2026")).toThrow(RangeError);
  });
});

describe("list filters", () => {
  it("parses account filters, dropping bad values", () => {
    expect(
      loadAccountFilters({ currency: "nok", bank: "  DNB ", status: "frozen", sort: "-balance", page: "0" }),
    ).toEqual({
      currency: "NOK",
      bank: "DNB",
      status: null,
      sort: "-balance",
      page: null,
      coverage: null,
    });
    expect(loadAccountFilters({ currency: "EURO", sort: "iban", page: "3" })).toMatchObject({
      currency: null,
      sort: null,
      page: 3,
    });
  });

  it("parses transaction filters", () => {
    const f = loadTransactionFilters({
      range: "ytd",
      direction: "debit",
      currency: "EUR",
      account: "5B3F1C2E-0000-4000-8000-000000000001",
      q: "rent",
      category: "Rent",
    });
    expect(f).toEqual({
      range: "ytd",
      from: null,
      to: null,
      direction: "debit",
      currency: "EUR",
      account: "5b3f1c2e-0000-4000-8000-000000000001",
      q: "rent",
      category: "Rent",
    });
    expect(loadTransactionFilters({ direction: "both", account: "123", q: "   " })).toMatchObject({
      direction: null,
      account: null,
      q: null,
    });
  });

  it("maps sort strings to table state and back", () => {
    expect(sortToState("-balance")).toEqual([{ id: "balance", desc: true }]);
    expect(sortToState(null)).toEqual([]);
    expect(stateToSort([{ id: "bank", desc: false }])).toBe("bank");
    expect(stateToSort([{ id: "iban", desc: false }])).toBeNull();
    expect(stateToSort([])).toBeNull();
  });

  it("matches text case-insensitively across fields", () => {
    expect(matchesText("ACME", "Acme AS", null)).toBe(true);
    expect(matchesText("rent", "Acme AS", "Invoice 42")).toBe(false);
    expect(matchesText(null, "x")).toBe(true);
  });
});

import { intradayQuery, loadIntradayState } from "./intraday";

describe("intraday URL state", () => {
  it("defaults to today's interim booked points and clamps future days", () => {
    expect(intradayQuery(loadIntradayState({}), "2026-03-15")).toEqual({
      day: "2026-03-15",
      span: 1,
      balance_type: "interim_booked",
      date: "2026-03-15",
    });
    expect(intradayQuery(loadIntradayState({ day: "2026-04-01" }), "2026-03-15")).toMatchObject({ day: "2026-03-15" });
  });
  it("turns a span into an inclusive range ending at the day", () => {
    expect(
      intradayQuery(loadIntradayState({ day: "2026-03-02", span: "7", btype: "interim_available" }), "2026-03-15"),
    ).toEqual({
      day: "2026-03-02",
      span: 7,
      balance_type: "interim_available",
      from_date: "2026-02-24",
      to_date: "2026-03-02",
    });
    expect(loadIntradayState({ span: "30", btype: "x" })).toEqual({ day: null, span: null, btype: null });
  });
});
