/** Amount, timestamp and IBAN formatting (docs/architecture.md#enumerations; money is never a float). */
import { describe, expect, it } from "vitest";
import { formatAmount, isoTimestamp, maskIban } from "./format";

describe("formatAmount", () => {
  it.each([
    ["1250.00", "NOK", "1250.00"], // hot path: already the currency's digits
    ["-0.50", "EUR", "-0.50"],
    ["100.5", "NOK", "100.50"],
    ["8.850", "EUR", "8.85"], // trailing zero beyond the currency's digits dropped, nothing rounded
    ["1.234", "NOK", "1.234"], // a bank's extra digit is kept, never rounded away
    ["100", "JPY", "100"],
    ["100.0", "JPY", "100"],
    ["1.5", "KWD", "1.500"],
    ["12345678901234567.89", "NOK", "12345678901234567.89"], // beyond float precision
  ])("%s %s → %s", (value, currency, expected) => {
    expect(formatAmount(value, currency)).toBe(expected);
  });
});

describe("isoTimestamp", () => {
  it("turns PostgreSQL text into ISO 8601 UTC and keeps SQL-formatted values", () => {
    expect(isoTimestamp("2026-01-10 08:15:00+01")).toBe("2026-01-10T07:15:00.000Z");
    expect(isoTimestamp("2026-01-10T07:15:00.000Z")).toBe("2026-01-10T07:15:00.000Z");
  });
});

describe("maskIban", () => {
  it("keeps the first and last four characters", () => {
    expect(maskIban("NO93 8601 1117 947")).toBe("NO93*******7947");
    expect(maskIban("SE4550000000058398257466")).toBe("SE45****************7466");
  });
});
