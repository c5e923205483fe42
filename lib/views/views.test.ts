import { describe, expect, it } from "vitest";
import { buildAccountRow } from "./accounts";
import { coverageSummary, coverageWindow, lastGap, missingSince } from "./coverage";

const id = "00000000-0000-4000-8000-000000000001";
const acct = { id, name: "Ops NOK", currency: "NOK", iban_masked: "NO93****5304", bank_name: "DNB" };

describe("coverageWindow", () => {
  it("fills every day of the window and treats a day without a row as missing", () => {
    const cells = coverageWindow(
      [
        { date: "2026-02-27", completeness: "complete", source: "camt.053" },
        { date: "2026-03-01", completeness: "partial", source: "api" },
      ],
      "2026-02-27",
      "2026-03-02",
    );
    expect(cells.map((c) => `${c.date}:${c.state}`)).toEqual([
      "2026-02-27:complete",
      "2026-02-28:missing",
      "2026-03-01:partial",
      "2026-03-02:missing",
    ]);
    expect(coverageSummary(cells)).toEqual({ complete: 1, partial: 1, missing: 2 });
    expect(lastGap(cells)?.date).toBe("2026-03-02");
    expect(missingSince(cells)).toBe("2026-02-28");
  });

  it("is empty for a reversed range and has no gap when all complete", () => {
    expect(coverageWindow([], "2026-03-02", "2026-03-01")).toEqual([]);
    const ok = coverageWindow(
      [{ date: "2026-03-01", completeness: "complete", source: "mt940" }],
      "2026-03-01",
      "2026-03-01",
    );
    expect(lastGap(ok)).toBeNull();
    expect(missingSince(ok)).toBeNull();
  });
});

describe("buildAccountRow", () => {
  it("takes the headline booked and available balances: today's interim, else the latest ended day's closing", () => {
    const snap = (balance_type: string, as_of_date: string, balance: string) => ({
      id,
      account_id: id,
      balance_type: balance_type as "closing_booked",
      as_of_date,
      balance,
      currency: "NOK",
    });
    const row = buildAccountRow(
      acct,
      [
        snap("closing_booked", "2026-03-01", "100.00"),
        snap("interim_booked", "2026-03-02", "150.00"),
        snap("closing_available", "2026-03-01", "90.00"),
        snap("interim_available", "2026-03-01", "1.00"),
      ],
      [],
      "2026-02-24",
      "2026-03-02",
      "2026-03-02",
    );
    expect(row.booked).toMatchObject({ balance: "150.00", balance_type: "interim_booked", as_of_date: "2026-03-02" });
    expect(row.available).toMatchObject({ balance: "90.00", balance_type: "closing_available" });
    expect(row.coverage).toHaveLength(7);
  });

  it("has null balances when the account has none", () => {
    expect(buildAccountRow(acct, [], [], "2026-03-01", "2026-03-01", "2026-03-02")).toMatchObject({
      booked: null,
      available: null,
    });
  });
});
