import { describe, expect, it } from "vitest";
import type { Account } from "@treasury/contract";
import type { AccountRow } from "./accounts";
import {
  compareAccounts,
  compareRows,
  hasCoverageGap,
  matchesBank,
  needsEveryRow,
  pageOf,
  spansAllAccounts,
} from "./account-list";

let n = 0;
function account(name: string, bank: string, currency = "NOK"): Account {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    name,
    currency,
    iban_masked: "NO93****5304",
    bank_name: bank,
  };
}
function row(a: Account, booked: string | null, available: string | null = booked, gaps = false): AccountRow {
  const bal = (b: string) => ({
    balance: b,
    currency: a.currency,
    as_of_date: "2026-03-01",
    balance_type: "closing_booked",
  });
  return {
    account: a,
    booked: booked === null ? null : bal(booked),
    available: available === null ? null : bal(available),
    coverage: [
      { date: "2026-02-28", state: "complete", source: "camt.053" },
      { date: "2026-03-01", state: gaps ? "missing" : "complete", source: gaps ? null : "camt.053" },
    ],
  };
}

describe("which reads a query needs", () => {
  it("uses the API's paging only when nothing beyond the spec's filters is set", () => {
    expect(spansAllAccounts({ bank: null, coverage: null, sort: null })).toBe(false);
    expect(spansAllAccounts({ bank: "DNB", coverage: null, sort: null })).toBe(true);
    expect(spansAllAccounts({ bank: null, coverage: null, sort: "-name" })).toBe(true);
  });
  it("reads every row's balances only for the gap filter and balance sorts", () => {
    expect(needsEveryRow({ bank: "DNB", coverage: null, sort: "bank" })).toBe(false);
    expect(needsEveryRow({ bank: null, coverage: "gaps", sort: null })).toBe(true);
    expect(needsEveryRow({ bank: null, coverage: null, sort: "-balance" })).toBe(true);
    expect(needsEveryRow({ bank: null, coverage: null, sort: "available" })).toBe(true);
  });
});

describe("filters", () => {
  it("matches a bank case-insensitively, any bank when unset", () => {
    const a = account("Drift", "Danske Bank");
    expect(matchesBank(a, "danske")).toBe(true);
    expect(matchesBank(a, "DNB")).toBe(false);
    expect(matchesBank(a, null)).toBe(true);
  });
  it("a gap is any day partial or missing", () => {
    const a = account("Drift", "DNB");
    expect(hasCoverageGap(row(a, "1.00"))).toBe(false);
    expect(hasCoverageGap(row(a, "1.00", "1.00", true))).toBe(true);
    expect(hasCoverageGap({ coverage: [{ date: "2026-03-01", state: "partial", source: "api" }] })).toBe(true);
  });
});

describe("sorting", () => {
  const x = account("Valutakonto EUR", "Nordea", "EUR");
  const y = account("driftskonto", "DNB");
  const z = account("Konto 10", "DNB");
  const w = account("Konto 9", "SEB", "SEK");

  it("text sorts ignore case, order numbers naturally, and break ties by name", () => {
    expect([x, y, z, w].sort(compareAccounts("name") ?? undefined).map((a) => a.name)).toEqual([
      "driftskonto",
      "Konto 9",
      "Konto 10",
      "Valutakonto EUR",
    ]);
    expect([x, y, z, w].sort(compareAccounts("-bank") ?? undefined).map((a) => a.name)).toEqual([
      "Konto 9",
      "Valutakonto EUR",
      "driftskonto",
      "Konto 10",
    ]);
    expect(compareAccounts("balance")).toBeNull();
  });

  it("balances compare as decimals (not as text or floats); no balance sorts last both ways", () => {
    const rows = [
      row(x, "9.99"),
      row(y, "10.00"),
      row(z, null),
      row(w, "-20000000000000000.01"),
      row(account("Big", "DNB"), "10000000000000000.02"),
    ];
    expect(rows.sort(compareRows("balance")).map((r) => r.booked?.balance ?? "none")).toEqual([
      "-20000000000000000.01",
      "9.99",
      "10.00",
      "10000000000000000.02",
      "none",
    ]);
    expect(rows.sort(compareRows("-balance")).map((r) => r.booked?.balance ?? "none")).toEqual([
      "10000000000000000.02",
      "10.00",
      "9.99",
      "-20000000000000000.01",
      "none",
    ]);
  });

  it("the available sort reads the available balance; equal amounts fall back to name", () => {
    const rows = [row(z, "5.00", "1.00"), row(y, "1.00", "5.00"), row(w, "1.00", "5.00")];
    expect(rows.sort(compareRows("-available")).map((r) => r.account.name)).toEqual([
      "driftskonto",
      "Konto 9",
      "Konto 10",
    ]);
  });
});

describe("pageOf", () => {
  const items = Array.from({ length: 57 }, (_, i) => i);
  it("cuts pages and says whether there are more", () => {
    expect(pageOf(items, 1, 50)).toMatchObject({
      count: 57,
      page: 1,
      total_pages: 2,
      has_next: true,
      has_previous: false,
    });
    const p2 = pageOf(items, 2, 50);
    expect(p2.items).toEqual([50, 51, 52, 53, 54, 55, 56]);
    expect(p2).toMatchObject({ has_next: false, has_previous: true });
  });
  it("clamps a page past the end or below 1, and an empty list is one empty page", () => {
    expect(pageOf(items, 9, 50).page).toBe(2);
    expect(pageOf(items, 0, 50).page).toBe(1);
    expect(pageOf([], 3, 50)).toEqual({
      items: [],
      count: 0,
      page: 1,
      page_size: 50,
      total_pages: 1,
      has_next: false,
      has_previous: false,
    });
  });
  it("refuses a page size below 1", () => {
    expect(() => pageOf(items, 1, 0)).toThrow(RangeError);
  });
});
