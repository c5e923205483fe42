/** The execution-date rule of the payment run: "today" is the company's, around midnight and across zones. */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { executionDateProblem } from "./payments";

describe("executionDateProblem", () => {
  it("uses the company's date: in Oslo 00:30 on the 1st is already the 1st while UTC is still on the 31st", () => {
    const now = new Date("2026-12-31T23:30:00Z");
    expect(executionDateProblem("2026-12-31", "NO", now)).toMatch(/today is 2027-01-01/);
    expect(executionDateProblem("2027-01-01", "NO", now)).toBeNull();
    // A company without a known zone compares with UTC: the 31st is still today.
    expect(executionDateProblem("2026-12-31", "ZZ", now)).toBeNull();
  });

  it("just before and at midnight in Oslo (winter, UTC+1)", () => {
    expect(executionDateProblem("2026-11-23", "NO", new Date("2026-11-23T22:59:59Z"))).toBeNull();
    expect(executionDateProblem("2026-11-23", "NO", new Date("2026-11-23T23:00:00Z"))).toMatch(/past/);
  });

  it("summer time (UTC+2) and Helsinki (UTC+3 in summer)", () => {
    expect(executionDateProblem("2026-07-01", "SE", new Date("2026-07-01T21:59:59Z"))).toBeNull();
    expect(executionDateProblem("2026-07-01", "SE", new Date("2026-07-01T22:00:00Z"))).toMatch(/past/);
    expect(executionDateProblem("2026-07-01", "FI", new Date("2026-07-01T21:00:00Z"))).toMatch(/today is 2026-07-02/);
  });

  it("accepts future dates and no date", () => {
    expect(executionDateProblem("2030-01-01", "NO", new Date("2026-11-23T12:00:00Z"))).toBeNull();
    expect(executionDateProblem(undefined, "NO")).toBeNull();
    expect(executionDateProblem(null, "NO")).toBeNull();
  });
});
