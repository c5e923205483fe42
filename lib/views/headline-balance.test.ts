import { describe, expect, it } from "vitest";
import type { BalanceSnapshot } from "@treasury/contract";
import { headlineBalance, headlineBasisLabel, rowBasisLabel } from "./headline-balance";

const TODAY = "2026-11-23";
const snap = (balance_type: BalanceSnapshot["balance_type"], as_of_date: string, balance: string) => ({
  balance_type,
  as_of_date,
  balance,
  currency: "EUR",
});

describe("headlineBalance", () => {
  it("shows today's interim booked over yesterday's closing, labelled interim", () => {
    const h = headlineBalance(
      [snap("closing_booked", "2026-11-22", "1000.00"), snap("interim_booked", TODAY, "1093.76")],
      TODAY,
    );
    expect(h).toEqual({ balance: "1093.76", currency: "EUR", as_of_date: TODAY, balance_type: "interim_booked" });
    expect(headlineBasisLabel(h ?? { balance_type: "" })).toBe("Interim today");
  });

  it("ignores a closing dated today (the day has not ended): today's interim is the headline", () => {
    // The account header used to show this closing, 93,760.93 away from the same day's interim booked figure.
    const snaps = [
      snap("closing_booked", "2026-11-22", "500000.00"),
      snap("closing_booked", TODAY, "593760.93"),
      snap("interim_booked", TODAY, "500000.00"),
    ];
    expect(headlineBalance(snaps, TODAY)).toMatchObject({ balance: "500000.00", balance_type: "interim_booked" });
    // Without today's interim, the latest closing of an ended day, not today's.
    expect(headlineBalance(snaps.slice(0, 2), TODAY)).toMatchObject({
      balance: "500000.00",
      as_of_date: "2026-11-22",
      balance_type: "closing_booked",
    });
  });

  it("never takes an earlier day's interim; the latest ended closing wins whatever the order", () => {
    const snaps = [
      snap("interim_booked", "2026-11-22", "9.00"),
      snap("closing_booked", "2026-11-21", "21.00"),
      snap("closing_booked", "2026-11-20", "20.00"),
    ];
    expect(headlineBalance(snaps, TODAY)).toMatchObject({ balance: "21.00", as_of_date: "2026-11-21" });
    expect(headlineBalance([snap("interim_booked", "2026-11-22", "9.00")], TODAY)).toBeNull();
    expect(headlineBalance([], TODAY)).toBeNull();
  });

  it("applies the same rule to the available side, ignoring booked snapshots", () => {
    const snaps = [
      snap("closing_booked", "2026-11-22", "1.00"),
      snap("interim_booked", TODAY, "2.00"),
      snap("closing_available", "2026-11-22", "3.00"),
      snap("interim_available", "2026-11-22", "4.00"),
    ];
    const h = headlineBalance(snaps, TODAY, "available");
    expect(h).toMatchObject({ balance: "3.00", balance_type: "closing_available" });
    expect(headlineBasisLabel(h ?? { balance_type: "" })).toBe("Closing available");
    expect(headlineBasisLabel({ balance_type: "closing_booked" })).toBe("Closing booked");
  });
});

describe("rowBasisLabel", () => {
  const day = (d: string) => `<${d}>`;
  it("names the balance a row sums: closing of which day, interim today, or both", () => {
    const closing = (d: string) => ({ basis: "closing_booked", asOfDate: d });
    const interim = { basis: "interim_booked", asOfDate: "2026-11-27" };
    expect(rowBasisLabel([closing("2026-11-25"), closing("2026-11-26")], day)).toBe("Closing booked <2026-11-26>");
    expect(rowBasisLabel([interim, interim], day)).toBe("Interim today");
    expect(rowBasisLabel([closing("2026-11-26"), interim], day)).toBe("Closing booked <2026-11-26> · 1 interim today");
    expect(rowBasisLabel([{ basis: null, asOfDate: null }], day)).toBe("No balance");
  });
});
