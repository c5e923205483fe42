import { describe, expect, it } from "vitest";
import { businessToday, startOfBusinessDate, executionDateProblem } from "./business-date";

describe("business dates", () => {
  it("a date begins at local midnight where the company is", () => {
    expect(startOfBusinessDate("DK", "2026-11-24").toISOString()).toBe("2026-11-23T23:00:00.000Z");
    expect(startOfBusinessDate("no", "2026-07-01").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(startOfBusinessDate("GB", "2026-11-24").toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(startOfBusinessDate("FI", "2026-11-24").toISOString()).toBe("2026-11-23T22:00:00.000Z");
  });

  it("takes the offset at midnight on daylight-saving days", () => {
    // Summer time starts at 01:00 UTC on 29 March 2026: midnight is still CET (+1).
    expect(startOfBusinessDate("SE", "2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    // Summer time ends at 01:00 UTC on 25 October 2026: midnight is still CEST (+2).
    expect(startOfBusinessDate("SE", "2026-10-25").toISOString()).toBe("2026-10-24T22:00:00.000Z");
  });

  it("uses UTC for a country without a known zone", () => {
    expect(startOfBusinessDate("US", "2026-11-24").toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(startOfBusinessDate(null, "2026-11-24").toISOString()).toBe("2026-11-24T00:00:00.000Z");
  });

  it("today is the company's today", () => {
    const lateEvening = new Date("2026-11-23T23:30:00Z");
    expect(businessToday("DK", lateEvening)).toBe("2026-11-24");
    expect(businessToday("GB", lateEvening)).toBe("2026-11-23");
    expect(businessToday(undefined, lateEvening)).toBe("2026-11-23");
  });
});

describe("executionDateProblem", () => {
  it("compares with today where the company is: at 23:30 UTC Oslo is on the next date", () => {
    const now = new Date("2026-11-23T23:30:00Z");
    expect(executionDateProblem("2026-11-24", "NO", now)).toBeNull();
    expect(executionDateProblem("2026-11-23", "NO", now)).toBe(
      "must not be in the past (today is 2026-11-24 where the company is)",
    );
    // A country without a known zone uses UTC, where 2026-11-23 is still today.
    expect(executionDateProblem("2026-11-23", "US", now)).toBeNull();
    expect(executionDateProblem(undefined, "NO", now)).toBeNull();
  });
});
