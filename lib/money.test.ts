import { describe, expect, it } from "vitest";

const fmt = (...a: Parameters<typeof formatMoney>) => formatMoney(...a).replace(/\u00a0/g, " ");
import { formatMoney, isNegative, signedAmount, sumAmounts } from "./money";
import { addDaysIso, formatDate } from "./dates";

describe("money", () => {
  it("formats decimal strings exactly with the currency", () => {
    expect(fmt("1250.5", "NOK")).toBe("NOK 1,250.50");
    expect(fmt("-1250.50", "EUR")).toBe("-EUR 1,250.50");
    expect(fmt("123456789012345678.12", "SEK")).toBe("SEK 123,456,789,012,345,678.12");
    expect(fmt("1000", "JPY")).toBe("JPY 1,000");
    expect(fmt("10", "USD", { signed: true })).toBe("+USD 10.00");
  });

  it("signs, compares and sums without floats", () => {
    expect(signedAmount("100.10", "debit")).toBe("-100.10");
    expect(signedAmount("100.10", "credit")).toBe("100.10");
    expect(isNegative("-0.01")).toBe(true);
    expect(isNegative("0.00")).toBe(false);
    expect(sumAmounts(["0.10", "0.20"])).toBe("0.30");
    expect(sumAmounts(["100.50", "0.50"])).toBe("101.00");
  });

  it("dates", () => {
    expect(formatDate("2026-01-10")).toBe("10 Jan 2026");
    expect(addDaysIso("2026-03-01", -1)).toBe("2026-02-28");
  });
});
