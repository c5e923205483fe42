import { describe, expect, it } from "vitest";
import {
  AutoRuleInput,
  describeRule,
  failedConditions,
  firstHoldingRule,
  ruleHolds,
  type RuleCandidate,
} from "./rules";

const CO = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";

const rule = (over: Partial<AutoRuleInput> = {}): AutoRuleInput =>
  AutoRuleInput.parse({ name: "Exact 100", min_score: 100, ...over });

const candidate = (
  over: {
    match?: Partial<RuleCandidate["match"]>;
    instruction?: Partial<NonNullable<RuleCandidate["instruction"]>> | null;
    transaction?: Partial<NonNullable<RuleCandidate["transaction"]>> | null;
  } = {},
): RuleCandidate => ({
  match: { state: "proposed", score: 100, company_id: CO, ...over.match },
  instruction:
    over.instruction === null
      ? null
      : { amount: "1200.00", currency: "NOK", end_to_end_id: "E2E-1", ...over.instruction },
  transaction:
    over.transaction === null ? null : { amount: "1200", currency: "NOK", end_to_end_id: "E2E-1", ...over.transaction },
});

describe("failedConditions", () => {
  it("a 100 match with the exact amount and the end-to-end id meets the default rule", () => {
    expect(failedConditions(rule(), candidate())).toEqual([]);
    expect(ruleHolds(rule(), candidate())).toBe(true);
  });

  it("state: only proposed matches", () => {
    expect(failedConditions(rule(), candidate({ match: { state: "confirmed" } }))).toEqual(["state"]);
    expect(failedConditions(rule(), candidate({ match: { state: "rejected" } }))).toEqual(["state"]);
  });

  it("sides: a match whose instruction or transaction could not be read is never confirmed", () => {
    expect(failedConditions(rule(), candidate({ instruction: null }))).toEqual(["sides"]);
    expect(
      failedConditions(
        rule({ exact_amount: false, end_to_end_id: false, min_score: 0 }),
        candidate({ transaction: null }),
      ),
    ).toEqual(["sides"]);
  });

  it("min_score: at least, inclusive", () => {
    expect(failedConditions(rule({ min_score: 95 }), candidate({ match: { score: 95 } }))).toEqual([]);
    expect(failedConditions(rule({ min_score: 95 }), candidate({ match: { score: 94 } }))).toEqual(["min_score"]);
    expect(failedConditions(rule({ min_score: 0 }), candidate({ match: { score: 0 } }))).toEqual([]);
  });

  it("exact_amount: decimal equality in the same currency; a deducted fee or another currency fails; off ignores it", () => {
    expect(failedConditions(rule(), candidate({ transaction: { amount: "1200.000" } }))).toEqual([]);
    expect(failedConditions(rule(), candidate({ transaction: { amount: "1185.00" } }))).toEqual(["exact_amount"]);
    expect(failedConditions(rule(), candidate({ transaction: { amount: "1200.01" } }))).toEqual(["exact_amount"]);
    expect(failedConditions(rule(), candidate({ transaction: { currency: "SEK" } }))).toEqual(["exact_amount"]);
    expect(failedConditions(rule(), candidate({ transaction: { amount: "not a number" } }))).toEqual(["exact_amount"]);
    expect(failedConditions(rule({ exact_amount: false }), candidate({ transaction: { amount: "1185.00" } }))).toEqual(
      [],
    );
  });

  it("end_to_end_id: equal after trimming, case kept; absent or empty fails; off ignores it", () => {
    expect(failedConditions(rule(), candidate({ transaction: { end_to_end_id: " E2E-1 " } }))).toEqual([]);
    expect(failedConditions(rule(), candidate({ transaction: { end_to_end_id: "e2e-1" } }))).toEqual(["end_to_end_id"]);
    expect(failedConditions(rule(), candidate({ transaction: { end_to_end_id: null } }))).toEqual(["end_to_end_id"]);
    expect(failedConditions(rule(), candidate({ transaction: { end_to_end_id: "E2E-12" } }))).toEqual([
      "end_to_end_id",
    ]);
    expect(
      failedConditions(rule(), candidate({ instruction: { end_to_end_id: "" }, transaction: { end_to_end_id: "" } })),
    ).toEqual(["end_to_end_id"]);
    expect(
      failedConditions(rule({ end_to_end_id: false }), candidate({ transaction: { end_to_end_id: null } })),
    ).toEqual([]);
  });

  it("company_id: the match's company when set", () => {
    expect(failedConditions(rule({ company_id: CO }), candidate())).toEqual([]);
    expect(failedConditions(rule({ company_id: OTHER }), candidate())).toEqual(["company_id"]);
    expect(failedConditions(rule({ company_id: CO }), candidate({ match: { company_id: undefined } }))).toEqual([
      "company_id",
    ]);
  });

  it("currency: the instruction's currency when set", () => {
    expect(failedConditions(rule({ currency: "NOK" }), candidate())).toEqual([]);
    expect(failedConditions(rule({ currency: "EUR" }), candidate())).toEqual(["currency"]);
  });

  it("max_amount: the instruction's amount at most, inclusive", () => {
    expect(failedConditions(rule({ max_amount: "1200.00" }), candidate())).toEqual([]);
    expect(failedConditions(rule({ max_amount: "1199.99" }), candidate())).toEqual(["max_amount"]);
  });

  it("names every failing condition in order", () => {
    expect(
      failedConditions(
        rule({ min_score: 100, company_id: OTHER, currency: "EUR", max_amount: "10" }),
        candidate({ match: { score: 80 }, transaction: { amount: "1", end_to_end_id: "X" } }),
      ),
    ).toEqual(["min_score", "exact_amount", "end_to_end_id", "company_id", "currency", "max_amount"]);
  });
});

describe("firstHoldingRule", () => {
  it("skips disabled rules and takes the first that holds, in order", () => {
    const a = { ...rule({ name: "A", enabled: false }), id: "a" };
    const b = { ...rule({ name: "B", currency: "EUR" }), id: "b" };
    const c = { ...rule({ name: "C", min_score: 90 }), id: "c" };
    const d = { ...rule({ name: "D" }), id: "d" };
    expect(firstHoldingRule([a, b, c, d], candidate())?.id).toBe("c");
    expect(firstHoldingRule([a, b], candidate())).toBeNull();
    expect(firstHoldingRule([], candidate())).toBeNull();
  });
});

describe("AutoRuleInput", () => {
  const errors = (v: unknown) => {
    const r = AutoRuleInput.safeParse(v);
    return r.success ? {} : r.error.flatten().fieldErrors;
  };

  it("defaults: enabled, exact amount, end-to-end id; empty optional fields are null; currency upper-cased", () => {
    expect(
      AutoRuleInput.parse({ name: " Exact ", min_score: 100, currency: "nok", company_id: "", max_amount: "" }),
    ).toEqual({
      name: "Exact",
      enabled: true,
      min_score: 100,
      exact_amount: true,
      end_to_end_id: true,
      company_id: null,
      currency: "NOK",
      max_amount: null,
    });
  });

  it("names the field of each bad input", () => {
    expect(errors({ min_score: 100 })).toHaveProperty("name");
    expect(errors({ name: "", min_score: 100 })).toHaveProperty("name");
    expect(errors({ name: "x".repeat(61), min_score: 100 })).toHaveProperty("name");
    expect(errors({ name: "x" })).toHaveProperty("min_score");
    expect(errors({ name: "x", min_score: 101 })).toHaveProperty("min_score");
    expect(errors({ name: "x", min_score: -1 })).toHaveProperty("min_score");
    expect(errors({ name: "x", min_score: 99.5 })).toHaveProperty("min_score");
    expect(errors({ name: "x", min_score: "100" })).toHaveProperty("min_score");
    expect(errors({ name: "x", min_score: 100, exact_amount: "yes" })).toHaveProperty("exact_amount");
    expect(errors({ name: "x", min_score: 100, end_to_end_id: 1 })).toHaveProperty("end_to_end_id");
    expect(errors({ name: "x", min_score: 100, enabled: null })).toHaveProperty("enabled");
    expect(errors({ name: "x", min_score: 100, company_id: "acme" })).toHaveProperty("company_id");
    expect(errors({ name: "x", min_score: 100, currency: "kroner" })).toHaveProperty("currency");
    expect(errors({ name: "x", min_score: 100, max_amount: "1e5" })).toHaveProperty("max_amount");
    expect(errors({ name: "x", min_score: 100, max_amount: "-5" })).toHaveProperty("max_amount");
    expect(errors({ name: "x", min_score: 100, max_amount: 500 })).toHaveProperty("max_amount");
    expect(AutoRuleInput.safeParse({ name: "x", min_score: 100, colour: "red" }).success).toBe(false);
  });
});

describe("describeRule", () => {
  it("lists the conditions in words", () => {
    expect(describeRule(rule({ currency: "NOK", max_amount: "10000.00", company_id: CO }), () => "Nordlys AS")).toBe(
      "score ≥ 100 · exact amount · end-to-end id equal · Nordlys AS · NOK · amount ≤ 10000.00",
    );
    expect(describeRule(rule({ min_score: 90, exact_amount: false, end_to_end_id: false }))).toBe("score ≥ 90");
  });
});
