/**
 * The forecast's real inputs (lib/forecast/sources.ts): transactions become signed, categorised history; only
 * approved and pending batches become known flows, never before tomorrow; the latest position is the opening;
 * rates cross through EUR at the latest stored rate with the older leg's date; the group sums by the rates and
 * names the currencies it could not convert.
 */
import { describe, expect, it } from "vitest";
import type { PaymentBatch, Transaction } from "@treasury/contract";
import { groupBuckets, ratesToReporting, toHistory, toKnownBatches, toOpenings, BATCH_CATEGORY } from "./sources";

const tx = (over: Partial<Transaction>): Transaction => ({
  id: "00000000-0000-4000-8000-000000000001",
  account_id: "00000000-0000-4000-8000-000000000002",
  amount: "100.00",
  currency: "EUR",
  direction: "debit",
  booked_at: "2026-11-02T09:00:00+01:00",
  value_at: "2026-11-02T09:00:00+01:00",
  counterparty_name: "Acme Payroll",
  remittance: "Salary November",
  ...over,
});

describe("toHistory", () => {
  it("signs by direction, takes the booking date and the first matching rule's category", () => {
    const rules = [
      {
        id: "r2",
        position: 2,
        category: "Other",
        direction: null,
        min_amount: null,
        max_amount: null,
        counterparty_contains: null,
        remittance_contains: null,
        iban: null,
      },
      {
        id: "r1",
        position: 1,
        category: "Payroll",
        direction: "debit" as const,
        min_amount: null,
        max_amount: null,
        counterparty_contains: "payroll",
        remittance_contains: null,
        iban: null,
      },
    ];
    const h = toHistory(
      "c1",
      [tx({}), tx({ direction: "credit", amount: "5.10", booked_date: "2026-11-03", counterparty_name: "Client" })],
      rules as never,
    );
    expect(h).toEqual([
      {
        date: "2026-11-02",
        company: "c1",
        currency: "EUR",
        category: "Payroll",
        amount: "-100.00",
        counterparty: "Acme Payroll",
      },
      { date: "2026-11-03", company: "c1", currency: "EUR", category: "Other", amount: "5.10", counterparty: "Client" },
    ]);
  });
});

describe("toKnownBatches", () => {
  const b = (status: PaymentBatch["status"], date: string | null, amount = "1200.50"): PaymentBatch => ({
    id: `b-${status}-${date}`,
    company_id: "c1",
    currency: "USD",
    status,
    total_amount: amount,
    created_at: "2026-11-01T08:00:00Z",
    instruction_count: 2,
    requested_execution_date: date,
  });
  it("keeps approved and pending batches as outflows on their date, not before tomorrow", () => {
    const out = toKnownBatches(
      "c1",
      [
        b("approved", "2026-12-01"),
        b("pending_approval", null),
        b("approved", "2026-11-01"),
        b("created", "2026-12-01"),
        b("completed", "2026-12-01"),
        b("approved", "2026-12-02", "0.00"),
      ],
      "2026-11-28",
    );
    expect(out.map((x) => [x.status, x.execution_date, x.amount, x.category])).toEqual([
      ["approved", "2026-12-01", "-1200.5", BATCH_CATEGORY],
      ["pending", "2026-11-28", "-1200.5", BATCH_CATEGORY],
      ["approved", "2026-11-28", "-1200.5", BATCH_CATEGORY],
    ]);
  });
});

describe("toOpenings", () => {
  it("takes the latest position per currency", () => {
    expect(
      toOpenings("c1", [
        { date: "2026-11-25", currency: "EUR", balance: "10.00" },
        { date: "2026-11-26", currency: "EUR", balance: "12.00" },
        { date: "2026-11-20", currency: "DKK", balance: "7.00" },
      ]),
    ).toEqual([
      { company: "c1", currency: "DKK", amount: "7.00", date: "2026-11-20" },
      { company: "c1", currency: "EUR", amount: "12.00", date: "2026-11-26" },
    ]);
  });
});

describe("ratesToReporting", () => {
  const eur = [
    { quote: "USD", rate: "1.0500", date: "2026-11-25" },
    { quote: "USD", rate: "1.0000", date: "2026-11-26" },
    { quote: "DKK", rate: "7.4600", date: "2026-11-24" },
  ];
  it("crosses through EUR at the latest rate, dated with the older leg", () => {
    expect(ratesToReporting("EUR", ["EUR", "USD", "DKK", "JPY"], eur)).toEqual({
      USD: { rate: "1", date: "2026-11-26" },
      DKK: { rate: "0.134048", date: "2026-11-24" },
    });
    // 1 DKK = 1.0000 / 7.4600 USD; the DKK leg is the older.
    expect(ratesToReporting("USD", ["EUR", "DKK"], eur)).toEqual({
      EUR: { rate: "1", date: "2026-11-26" },
      DKK: { rate: "0.134048", date: "2026-11-24" },
    });
  });
  it("gives nothing when the reporting currency has no rate", () => {
    expect(ratesToReporting("CHF", ["EUR"], eur)).toEqual({});
  });
});

describe("groupBuckets", () => {
  it("sums every row of a bucket at its rate and names the currencies without one", () => {
    const row = (start: string, currency: string, amount: string) => ({
      start,
      end: start,
      company: "c1",
      currency,
      category: "x",
      amount,
      p10: amount,
      p90: amount,
    });
    const out = groupBuckets(
      [
        row("2026-12-01", "EUR", "100"),
        row("2026-12-01", "DKK", "746"),
        row("2026-12-02", "JPY", "5"),
        row("2026-12-02", "EUR", "-1.005"),
      ],
      "EUR",
      { DKK: { rate: "0.134048", date: "2026-11-24" } },
    );
    expect(out.missing).toEqual(["JPY"]);
    expect(out.buckets.map((b) => [b.start, b.amount])).toEqual([
      ["2026-12-01", "200.00"],
      ["2026-12-02", "-1.01"],
    ]);
  });
});
