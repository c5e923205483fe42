import { describe, expect, it } from "vitest";
import { isoTimestamp } from "./timestamps";

describe("isoTimestamp", () => {
  it("turns PostgreSQL's text form into ISO 8601 with offset, keeping the fraction", () => {
    expect(isoTimestamp("2026-11-23 17:59:59.601234+00")).toBe("2026-11-23T17:59:59.601234+00:00");
    expect(isoTimestamp("2026-11-23 17:59:59+05:30")).toBe("2026-11-23T17:59:59+05:30");
    expect(isoTimestamp("2026-11-23 12:59:59.6-05")).toBe("2026-11-23T12:59:59.6-05:00");
    expect(isoTimestamp("2026-11-23T17:59:59Z")).toBe("2026-11-23T17:59:59+00:00");
    expect(Date.parse(isoTimestamp("2026-11-23 17:59:59.601+00"))).toBe(Date.parse("2026-11-23T17:59:59.601Z"));
  });

  it("returns a Date as ISO and leaves what it does not recognise unchanged", () => {
    expect(isoTimestamp(new Date("2026-01-02T03:04:05.006Z"))).toBe("2026-01-02T03:04:05.006Z");
    expect(isoTimestamp("infinity")).toBe("infinity");
  });
});
