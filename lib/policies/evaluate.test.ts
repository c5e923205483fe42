import { describe, expect, it } from "vitest";
import { FxRates } from "../fx/convert";
import { evaluatePolicy, NO_RULE_REQUIRED, type PolicyBatch, type PolicyRule } from "./evaluate";

const CO_A = "aaaaaaaa-0000-4000-8000-000000000001";
const CO_B = "bbbbbbbb-0000-4000-8000-000000000002";
const LEADS = "99999999-0000-4000-8000-000000000009";
const groups = new Map([[LEADS, "Treasury leads"]]);

let seq = 0;
function rule(over: Partial<PolicyRule>): PolicyRule {
  seq += 1;
  return {
    id: `r${seq}`,
    position: seq,
    name: "",
    companyId: null,
    currency: null,
    amountCurrency: null,
    minAmount: null,
    maxAmount: null,
    risk: null,
    requiredApprovals: 1,
    eligibleRoles: ["approver"],
    eligibleGroupIds: [],
    ...over,
  };
}

/** 1 EUR = 11.5 NOK, 11 SEK, 160 JPY on 2026-11-20 (a Friday); no rates after. */
const fx = new FxRates([
  { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.5" },
  { date: "2026-11-20", base: "EUR", quote: "SEK", rate: "11" },
  { date: "2026-11-20", base: "EUR", quote: "JPY", rate: "160" },
]);

const batch = (over: Partial<PolicyBatch>): PolicyBatch => ({
  companyId: CO_A,
  currency: "EUR",
  totalAmount: "100.00",
  createdDate: "2026-11-20",
  ...over,
});

const defaults = () => [
  rule({ position: 1, name: "Large payments", amountCurrency: "EUR", minAmount: "100000", requiredApprovals: 2 }),
  rule({ position: 2, name: "Default", requiredApprovals: 1 }),
];

describe("evaluatePolicy", () => {
  it("the default rules: two approvals from EUR 100,000, exactly at the threshold, else one", () => {
    const rules = defaults();
    const at = evaluatePolicy(rules, batch({ totalAmount: "100000.00" }), fx, []);
    expect(at).toMatchObject({ requiredApprovals: 2, rule: { position: 1 } });
    expect(at.explanation).toBe("Rule 1 (Large payments): ≥ EUR 100,000 → 2 approvers from any approver");
    expect(evaluatePolicy(rules, batch({ totalAmount: "99999.99" }), fx, [])).toMatchObject({
      requiredApprovals: 1,
      explanation: "Rule 2 (Default): any batch → 1 approver from any approver",
    });
  });

  it("converts the batch total into the rule's currency with the rates of the creation date", () => {
    const rules = defaults();
    // NOK 1,150,000 = EUR 100,000.00 exactly; one øre less is below.
    const at = evaluatePolicy(rules, batch({ currency: "NOK", totalAmount: "1150000.00" }), fx, []);
    expect(at).toMatchObject({ requiredApprovals: 2, converted: { amount: "100000.00", currency: "EUR" } });
    expect(evaluatePolicy(rules, batch({ currency: "NOK", totalAmount: "1149999.80" }), fx, [])).toMatchObject({
      requiredApprovals: 1,
    });
    // JPY 100,000 is EUR 625: one approver (the API's old rule asked two).
    expect(evaluatePolicy(rules, batch({ currency: "JPY", totalAmount: "100000" }), fx, [])).toMatchObject({
      requiredApprovals: 1,
    });
    // Saturday's batch uses Friday's rate.
    expect(
      evaluatePolicy(rules, batch({ currency: "SEK", totalAmount: "1100000", createdDate: "2026-11-21" }), fx, []),
    ).toMatchObject({ requiredApprovals: 2, converted: { rateDate: "2026-11-20" } });
  });

  it("compares in the batch currency when the rule has no amount currency; max is exclusive", () => {
    const rules = [
      rule({ position: 1, minAmount: "1000", maxAmount: "5000", requiredApprovals: 3 }),
      rule({ position: 2, requiredApprovals: 1 }),
    ];
    expect(evaluatePolicy(rules, batch({ currency: "JPY", totalAmount: "1000" }), fx, []).requiredApprovals).toBe(3);
    expect(evaluatePolicy(rules, batch({ currency: "JPY", totalAmount: "4999" }), fx, []).requiredApprovals).toBe(3);
    expect(evaluatePolicy(rules, batch({ currency: "JPY", totalAmount: "5000" }), fx, []).requiredApprovals).toBe(1);
    expect(evaluatePolicy(rules, batch({ currency: "JPY", totalAmount: "999" }), fx, []).requiredApprovals).toBe(1);
  });

  it("takes the first matching rule in position order, whatever order the list is in", () => {
    const rules = [
      rule({ position: 3, requiredApprovals: 1 }),
      rule({ position: 1, companyId: CO_B, requiredApprovals: 4 }),
      rule({ position: 2, currency: "NOK", requiredApprovals: 3, eligibleGroupIds: [LEADS], eligibleRoles: [] }),
    ];
    expect(evaluatePolicy(rules, batch({ companyId: CO_B, currency: "NOK" }), fx, []).requiredApprovals).toBe(4);
    const nok = evaluatePolicy(rules, batch({ currency: "NOK" }), fx, [], groups);
    expect(nok).toMatchObject({ requiredApprovals: 3, eligibleGroupIds: [LEADS] });
    expect(nok.explanation).toBe("Rule 2: NOK → 3 approvers from Treasury leads");
    expect(evaluatePolicy(rules, batch({ currency: "SEK" }), fx, []).requiredApprovals).toBe(1);
  });

  it("matches risk signals: any, or one of the listed kinds", () => {
    const rules = [
      rule({ position: 1, risk: { mode: "kinds", kinds: ["bank_details_changed"] }, requiredApprovals: 3 }),
      rule({ position: 2, risk: { mode: "any" }, requiredApprovals: 2 }),
      rule({ position: 3, requiredApprovals: 1 }),
    ];
    expect(evaluatePolicy(rules, batch({}), fx, ["new_payee", "bank_details_changed"]).requiredApprovals).toBe(3);
    expect(evaluatePolicy(rules, batch({}), fx, ["new_payee"]).requiredApprovals).toBe(2);
    expect(evaluatePolicy(rules, batch({}), fx, []).requiredApprovals).toBe(1);
  });

  it("fails closed on a missing FX rate: the strictest rule that could apply, with the reason", () => {
    const rules = [
      rule({ position: 1, amountCurrency: "EUR", minAmount: "100000", requiredApprovals: 3 }),
      rule({ position: 2, requiredApprovals: 1 }),
    ];
    const d = evaluatePolicy(rules, batch({ currency: "DKK", totalAmount: "10" }), fx, []);
    expect(d).toMatchObject({ requiredApprovals: 3, failClosed: "fx_missing", rule: { position: 1 } });
    expect(d.explanation).toContain("no usable FX rate for DKK on 2026-11-20");
    // Rates over 7 days old are not used either.
    const late = evaluatePolicy(rules, batch({ currency: "NOK", createdDate: "2026-11-28" }), fx, []);
    expect(late).toMatchObject({ requiredApprovals: 3, failClosed: "fx_missing" });
    expect(late.explanation).toContain("over 7 days older");
    // A rule that does not depend on the rate and comes first still applies normally.
    const first = [rule({ position: 0, currency: "DKK", requiredApprovals: 1 }), ...rules];
    expect(evaluatePolicy(first, batch({ currency: "DKK" }), fx, [])).toMatchObject({ requiredApprovals: 1 });
    expect(evaluatePolicy(first, batch({ currency: "DKK" }), fx, []).failClosed).toBeUndefined();
  });

  it("with no matching rule, asks for the fail-closed default", () => {
    const d = evaluatePolicy([rule({ currency: "NOK" })], batch({}), fx, []);
    expect(d).toMatchObject({ rule: null, requiredApprovals: NO_RULE_REQUIRED, failClosed: "no_rule" });
    expect(d.explanation).toMatch(/No rule matched/);
  });
});
