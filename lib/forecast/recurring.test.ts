import { describe, expect, it } from "vitest";
import { dayOf, fromDay, isWeekend, toDay } from "./days";
import { buildForecast } from "./engine";
import { expandManualLine } from "./manual";
import { detectRecurring, projectRecurring, type RecurringPattern } from "./recurring";
import type { HistoryTxn, ManualLine } from "./types";

/** The nominal day `d` of each month from (y, m) for `count` months, moved to the Friday before a weekend. */
function monthly(y: number, m: number, d: number, count: number, step = 1): string[] {
  return Array.from({ length: count }, (_, i) => {
    let day = dayOf(y, m + i * step, d);
    while (isWeekend(day)) day--;
    return fromDay(day);
  });
}

const txn = (date: string, amount: string, counterparty: string, category = "payroll"): HistoryTxn => ({
  date,
  company: "ACME-DE",
  currency: "EUR",
  category,
  amount,
  counterparty,
});

describe("recurring payees", () => {
  it("finds a monthly salary on the 25th, moved to the Friday before a weekend, and projects it", () => {
    const dates = monthly(2025, 6, 25, 10); // Jun 2025 … Mar 2026
    expect(dates).toContain("2025-10-24"); // the 25th was a Saturday
    expect(dates).toContain("2026-01-23"); // the 25th was a Sunday
    const history = dates.map((d, i) => txn(d, i < 5 ? "-48200.00" : "-49100.00", "Payroll Bank AG"));
    const { patterns, matched } = detectRecurring(history, "2026-03-31");
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({
      cadence: "monthly",
      anchor: 25,
      roll: "preceding",
      amount: "-49100",
      next_date: "2026-04-24", // 25 April 2026 is a Saturday
      occurrences: 10,
      category: "payroll",
    });
    expect(matched.size).toBe(10);
    const flows = projectRecurring(patterns[0] as RecurringPattern, toDay("2026-04-01"), toDay("2026-06-30"));
    expect(flows.map((f) => f.date)).toEqual(["2026-04-24", "2026-05-25", "2026-06-25"]);
  });

  it("finds a quarterly tax and ignores a payee whose amount wanders", () => {
    const tax = monthly(2025, 1, 15, 5, 3).map((d, i) =>
      txn(d, ["-12000", "-12100", "-11950", "-12050", "-12020"][i] ?? "0", "Finanzamt", "tax"),
    );
    const wander = monthly(2025, 6, 3, 8).map((d, i) => txn(d, String(-1000 - 300 * i), "Cloud Inc", "it"));
    const { patterns } = detectRecurring([...tax, ...wander], "2026-03-31");
    expect(patterns.map((p) => [p.counterparty, p.cadence, p.next_date])).toEqual([
      ["finanzamt", "quarterly", "2026-04-15"],
    ]);
  });

  it("drops a pattern that stopped and one seen only twice", () => {
    const stopped = monthly(2025, 1, 10, 6).map((d) => txn(d, "-900", "Old Landlord", "rent")); // last: June 2025
    const twice = monthly(2026, 1, 5, 2).map((d) => txn(d, "-100", "New Vendor", "it"));
    expect(detectRecurring([...stopped, ...twice], "2026-03-31").patterns).toEqual([]);
  });

  it("finds a weekly flow and a recurring receipt", () => {
    const weekly = Array.from({ length: 8 }, (_, i) =>
      txn(fromDay(toDay("2026-02-02") + 7 * i), "-250.00", "Cleaning Co", "facilities"),
    );
    const rent = monthly(2025, 10, 1, 6).map((d) => txn(d, "3000.00", "Tenant GmbH", "rent_income"));
    const { patterns } = detectRecurring([...weekly, ...rent], "2026-03-31");
    expect(patterns.map((p) => [p.counterparty, p.cadence, p.next_date, p.amount])).toEqual([
      ["cleaning co", "weekly", "2026-04-06", "-250"],
      ["tenant gmbh", "monthly", "2026-04-01", "3000"],
    ]);
  });

  it("a pattern switched off is listed but not projected, and its history stays out of the remainder", () => {
    const history = monthly(2025, 6, 25, 10).map((d) => txn(d, "-49100.00", "Payroll Bank AG"));
    const on = buildForecast({ asOf: "2026-03-31", weeks: 13, history });
    expect(on.flows.filter((f) => f.source === "recurring")).toHaveLength(3);
    expect(on.flows.filter((f) => f.source === "statistical")).toHaveLength(0);
    const id = on.recurring[0]?.id ?? "";
    const off = buildForecast({ asOf: "2026-03-31", weeks: 13, history, disabledRecurring: new Set([id]) });
    expect(off.recurring[0]).toMatchObject({ id, enabled: false });
    expect(off.flows).toEqual([]);
  });
});

describe("manual lines", () => {
  const line = (p: Partial<ManualLine>): ManualLine => ({
    id: "l1",
    date: "2026-01-31",
    amount: "-5000.00",
    currency: "EUR",
    company: "ACME-DE",
    category: "loan",
    recurrence: "monthly",
    end_date: null,
    ...p,
  });
  it("monthly from the 31st clamps to shorter months without drifting", () => {
    expect(expandManualLine(line({}), "2026-01-01", "2026-05-31").map((f) => f.date)).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
    ]);
  });
  it("quarterly, weekly with an end date, once outside the range", () => {
    expect(
      expandManualLine(line({ recurrence: "quarterly", date: "2025-11-15" }), "2026-01-01", "2026-12-31").map(
        (f) => f.date,
      ),
    ).toEqual(["2026-02-15", "2026-05-15", "2026-08-15", "2026-11-15"]);
    expect(
      expandManualLine(
        line({ recurrence: "weekly", date: "2026-01-05", end_date: "2026-01-26" }),
        "2026-01-10",
        "2026-12-31",
      ).map((f) => f.date),
    ).toEqual(["2026-01-12", "2026-01-19", "2026-01-26"]);
    expect(expandManualLine(line({ recurrence: "once", date: "2025-12-01" }), "2026-01-01", "2026-12-31")).toEqual([]);
    expect(expandManualLine(line({ recurrence: "once" }), "2026-01-01", "2026-12-31")[0]).toMatchObject({
      date: "2026-01-31",
      amount: "-5000.00",
      source: "manual",
      ref: "l1",
    });
  });
});
