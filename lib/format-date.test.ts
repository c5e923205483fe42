import { describe, expect, it } from "vitest";
import { businessDateToUtcMs, datePartOf, formatBusinessDate, formatTimestamp } from "./format-date";

describe("business dates", () => {
  it("never shift the day, whatever the process time zone", () => {
    // The process TZ does not matter: the date is formatted as that day in UTC.
    expect(formatBusinessDate("2026-01-10", "en-GB")).toBe("10 Jan 2026");
    expect(formatBusinessDate("2026-01-01", "en-US")).toBe("Jan 1, 2026");
    expect(formatBusinessDate("2026-12-31", "nb-NO")).toMatch(/^31\. des\.? 2026$/);
    expect(formatBusinessDate("2026-03-01", "en-GB", "short")).toBe("1 Mar");
  });

  it("returns malformed input unchanged", () => {
    expect(formatBusinessDate("10/01/2026")).toBe("10/01/2026");
    expect(Number.isNaN(businessDateToUtcMs("x"))).toBe(true);
    expect(businessDateToUtcMs("1970-01-02")).toBe(86_400_000);
  });

  it("formats instants in a given zone and keeps the bank's date part", () => {
    expect(formatTimestamp("2026-01-10T23:30:00Z", "en-GB", { timeZone: "Europe/Oslo" })).toBe("11 Jan 2026, 00:30");
    expect(datePartOf("2026-01-10T23:30:00+01:00")).toBe("2026-01-10");
  });
});
