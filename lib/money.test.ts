import { describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { formatMoney, isNegative, signedAmount } from "./money";
import { sumAmounts } from "./totals";
import { addDaysIso } from "./dates";

const fmt = (...a: Parameters<typeof formatMoney>) => formatMoney(...a).replace(/\u00a0/g, " ");

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

  it("reads sign and scale from the string exactly as decimal.js arithmetic would", () => {
    const amounts = [
      "0",
      "0.00",
      "-0.00",
      "007.50",
      "-007.5",
      "100.10",
      "-100.10",
      "+5.00",
      "0.000001",
      "-0.000001",
      "123456789012345678.123456",
      "-999999999999999999.99",
    ];
    for (const a of amounts) {
      const d = new Decimal(a);
      expect(isNegative(a), a).toBe(d.isNegative() && !d.isZero());
      for (const dir of ["credit", "debit"] as const) {
        const abs = d.abs();
        expect(signedAmount(a, dir), `${a} ${dir}`).toBe(
          (dir === "debit" ? abs.negated() : abs).toFixed((a.split(".")[1] ?? "").length),
        );
      }
    }
    expect(signedAmount("0.00", "debit")).toBe("0.00");
    expect(signedAmount("-12.50", "credit")).toBe("12.50");
  });

  it("refuses what is not a decimal string instead of guessing", () => {
    for (const bad of ["", "abc", "1e3", "1.", ".5", "1,5", "--1", " 1"]) {
      expect(() => isNegative(bad), bad).toThrow(TypeError);
      expect(() => signedAmount(bad, "debit"), bad).toThrow(TypeError);
    }
  });

  it("dates", () => {
    expect(addDaysIso("2026-03-01", -1)).toBe("2026-02-28");
  });
});
