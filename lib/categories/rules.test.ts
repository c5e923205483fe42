import { describe, expect, it } from "vitest";
import { categorise, CategoryRuleInput, UNCATEGORISED } from "./rules";
import { testRule } from "./testing";

const rule = testRule;

const tx = (over: Partial<Parameters<typeof categorise>[1]> = {}) => ({
  direction: "debit" as const,
  amount: "100.00",
  counterparty_name: "Telenor Norge AS",
  remittance: "Invoice 4711",
  ...over,
});

describe("categorise", () => {
  it("puts a transaction no rule matches in Uncategorised", () => {
    expect(categorise([], tx())).toBe(UNCATEGORISED);
    expect(categorise([rule(1, { category: "Payroll", counterparty_contains: "salary" })], tx())).toBe(UNCATEGORISED);
  });

  it("takes the first matching rule by position, not by array order", () => {
    const rules = [
      rule(2, { category: "Second", counterparty_contains: "telenor" }),
      rule(1, { category: "First", counterparty_contains: "norge" }),
    ];
    expect(categorise(rules, tx())).toBe("First");
  });

  it("matches counterparty and remittance text case-insensitively as a substring", () => {
    expect(categorise([rule(1, { category: "Telecom", counterparty_contains: "TELENOR" })], tx())).toBe("Telecom");
    expect(categorise([rule(1, { category: "Inv", remittance_contains: "invoice 47" })], tx())).toBe("Inv");
    expect(categorise([rule(1, { category: "Inv", remittance_contains: "invoice 48" })], tx())).toBe(UNCATEGORISED);
  });

  it("requires every given condition", () => {
    const r = [rule(1, { category: "X", counterparty_contains: "telenor", remittance_contains: "salary" })];
    expect(categorise(r, tx())).toBe(UNCATEGORISED);
  });

  it("respects direction", () => {
    const r = [rule(1, { category: "Income", direction: "credit" })];
    expect(categorise(r, tx({ direction: "credit" }))).toBe("Income");
    expect(categorise(r, tx({ direction: "debit" }))).toBe(UNCATEGORISED);
  });

  it("treats min_amount as inclusive and max_amount as exclusive", () => {
    const r = [rule(1, { category: "Mid", min_amount: "100.00", max_amount: "200.00" })];
    expect(categorise(r, tx({ amount: "99.99" }))).toBe(UNCATEGORISED);
    expect(categorise(r, tx({ amount: "100.00" }))).toBe("Mid");
    expect(categorise(r, tx({ amount: "199.99" }))).toBe("Mid");
    expect(categorise(r, tx({ amount: "200.00" }))).toBe(UNCATEGORISED);
    expect(categorise(r, tx({ amount: "-150.00" }))).toBe("Mid");
  });

  it("compares IBANs in electronic format whatever the spacing and case", () => {
    const input = CategoryRuleInput.parse({ category: "Rent", iban: "no93 8601 1117 947" });
    const r = [{ ...input, id: "r1", position: 1 }];
    expect(r[0]?.iban).toBe("NO9386011117947");
    expect(categorise(r, tx({ counterparty_iban: "NO93 8601 1117 947" }))).toBe("Rent");
    expect(categorise(r, tx({ counterparty_iban: "NO9386011117948" }))).toBe(UNCATEGORISED);
    expect(categorise(r, tx({ remittance: "Rent to no93 8601 1117 947 Nov" }))).toBe("Rent");
    expect(categorise(r, tx({ remittance: "Rent Nov" }))).toBe(UNCATEGORISED);
  });
});

describe("CategoryRuleInput", () => {
  const issues = (v: unknown) => CategoryRuleInput.safeParse(v).error?.issues.map((i) => i.path.join("."));

  it("names the field of bad input", () => {
    expect(issues({})).toEqual(["category"]);
    expect(issues({ category: "A", iban: "NO00 1234" })).toEqual(["iban"]);
    expect(issues({ category: "A", direction: "up" })).toEqual(["direction"]);
    expect(issues({ category: "A", min_amount: "1.234" })).toEqual(["min_amount"]);
    expect(issues({ category: "A", min_amount: "10", max_amount: "10" })).toEqual(["max_amount"]);
    expect(issues({ category: "uncategorised" })).toEqual(["category"]);
    expect(issues({ category: "A", extra: 1 })).toEqual([""]);
  });

  it("turns empty strings into 'any'", () => {
    const r = CategoryRuleInput.parse({ category: " Payroll ", counterparty_contains: "", iban: "" });
    expect(r).toMatchObject({ category: "Payroll", counterparty_contains: null, iban: null });
  });
});
