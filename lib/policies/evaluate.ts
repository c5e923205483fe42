/**
 * Approval policy evaluation: which rule applies to a payment batch, how many approvals it needs and who may give
 * them. Pure (no I/O); the caller loads the rules, the FX rates and the batch's risk signals.
 *
 * Rules are tried in `position` order; the first whose every condition holds applies:
 * - `companyId` / `currency`: null matches every company / currency;
 * - amount: `min` inclusive, `max` exclusive (null: unbounded), compared in `amountCurrency` after converting the
 *   batch total with the rates of the batch's creation date (lib/fx/convert.ts rules: ECB rate of that day or
 *   up to 7 days older), or in the batch's own currency when `amountCurrency` is null;
 * - risk: null ignores signals; `any` needs at least one signal; `kinds` at least one of the listed codes.
 *
 * Fail closed:
 * - a rule whose amount cannot be converted (no usable FX rate) is undecidable; when one comes before the first
 *   rule that matches outright, the strictest rule that could apply (highest `requiredApprovals` among the
 *   undecidable ones and that first match; the earlier on a tie) is taken, and the explanation names the
 *   missing rate;
 * - when no rule matches, the batch needs {@link NO_RULE_REQUIRED} approvals from anyone holding the approver
 *   role, and the explanation says so.
 * The dashboard never asks for fewer approvals than the Treasury API requires (the caller takes the larger).
 */
import Decimal from "decimal.js";
import type { Conversion } from "../fx/convert";

/** Approvals needed when no rule matches at all (fail closed). */
export const NO_RULE_REQUIRED = 2;

export type RiskCondition = { mode: "any" } | { mode: "kinds"; kinds: string[] };

/** A rule as the evaluation reads it. Amounts are decimal strings. */
export interface PolicyRule {
  id: string;
  /** 1-based order. */
  position: number;
  name: string;
  companyId: string | null;
  currency: string | null;
  /** The currency of `minAmount` / `maxAmount`; null: the batch's own currency. */
  amountCurrency: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  risk: RiskCondition | null;
  requiredApprovals: number;
  eligibleRoles: string[];
  eligibleGroupIds: string[];
}

/** The batch facts a policy looks at. */
export interface PolicyBatch {
  companyId: string;
  currency: string;
  /** Decimal string in `currency`. */
  totalAmount: string;
  /** YYYY-MM-DD, the date whose FX rates convert the total. */
  createdDate: string;
}

/** Converts an amount dated `date` (lib/fx/convert.ts `FxRates` fits). */
export interface FxConverter {
  convert(amount: string, from: string, to: string, date: string): Conversion;
}

export interface PolicyDecision {
  /** The rule that applies; null when none matched (the fail-closed default). */
  rule: PolicyRule | null;
  requiredApprovals: number;
  eligibleRoles: string[];
  eligibleGroupIds: string[];
  /** e.g. `Rule 1 (Large payments): ≥ EUR 100,000 → 2 approvers from Treasury leads`. */
  explanation: string;
  /** The total as compared by the rule that applied, when it has an amount condition in another currency. */
  converted?: { amount: string; currency: string; rateDate: string };
  /** Set when the decision was taken fail-closed: `fx_missing` or `no_rule`. */
  failClosed?: "fx_missing" | "no_rule";
}

/** Group names by id, for explanations. */
export type GroupNames = ReadonlyMap<string, string>;

/** `100000` → `100,000`, `1234.5` → `1,234.5`: exact (no float), for explanations. */
function fmt(amount: string): string {
  const [int = "0", frac] = new Decimal(amount).toFixed().split(".");
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac ? `.${frac}` : ""}`;
}

/** The amount condition in words: `≥ EUR 100,000`, `< EUR 100,000`, `EUR 10,000 – 100,000`; "" when none. */
export function describeAmount(rule: Pick<PolicyRule, "amountCurrency" | "minAmount" | "maxAmount">): string {
  const cur = rule.amountCurrency ?? "(batch currency)";
  if (rule.minAmount !== null && rule.maxAmount !== null)
    return `${cur} ${fmt(rule.minAmount)} – ${fmt(rule.maxAmount)}`;
  if (rule.minAmount !== null) return `≥ ${cur} ${fmt(rule.minAmount)}`;
  if (rule.maxAmount !== null) return `< ${cur} ${fmt(rule.maxAmount)}`;
  return "";
}

/** Who may approve, in words: `from Treasury leads`, `from approver, admin`, `from any approver`. */
export function describeEligible(
  rule: Pick<PolicyRule, "eligibleRoles" | "eligibleGroupIds">,
  groups: GroupNames,
): string {
  const names = [
    ...rule.eligibleGroupIds.map((id) => groups.get(id) ?? "(deleted group)"),
    ...rule.eligibleRoles.map((r) => `role ${r}`),
  ];
  if (names.length === 0 || (rule.eligibleGroupIds.length === 0 && rule.eligibleRoles.join() === "approver"))
    return "from any approver";
  return `from ${names.join(" or ")}`;
}

/** The whole rule in one line: `Rule 3 (Large): NOK, ≥ EUR 100,000, any risk signal → 2 approvers from X`. */
export function describeRule(rule: PolicyRule, groups: GroupNames): string {
  const conditions = [
    rule.companyId ? `company ${rule.companyId.slice(0, 8)}` : "",
    rule.currency ?? "",
    describeAmount(rule),
    rule.risk ? (rule.risk.mode === "any" ? "any risk signal" : `risk: ${rule.risk.kinds.join(" or ")}`) : "",
  ].filter(Boolean);
  const n = rule.requiredApprovals;
  return (
    `Rule ${rule.position}${rule.name ? ` (${rule.name})` : ""}: ` +
    `${conditions.length ? conditions.join(", ") : "any batch"} → ${n} approver${n === 1 ? "" : "s"} ` +
    describeEligible(rule, groups)
  );
}

type AmountMatch = { ok: true; match: boolean; converted?: PolicyDecision["converted"] } | { ok: false; why: string };

function amountMatches(rule: PolicyRule, batch: PolicyBatch, fx: FxConverter): AmountMatch {
  if (rule.minAmount === null && rule.maxAmount === null) return { ok: true, match: true };
  let amount = new Decimal(batch.totalAmount);
  let converted: PolicyDecision["converted"];
  if (rule.amountCurrency && rule.amountCurrency !== batch.currency) {
    const c = fx.convert(batch.totalAmount, batch.currency, rule.amountCurrency, batch.createdDate);
    if (c.status !== "converted")
      return {
        ok: false,
        why:
          `no usable FX rate for ${c.missing.map((m) => m.currency).join(", ")} on ${batch.createdDate}` +
          ` (${c.reason === "rate_too_old" ? "the latest is over 7 days older" : "none stored"})`,
      };
    amount = new Decimal(c.value);
    converted = { amount: c.value, currency: rule.amountCurrency, rateDate: c.rateDate };
  }
  const match =
    (rule.minAmount === null || amount.gte(rule.minAmount)) && (rule.maxAmount === null || amount.lt(rule.maxAmount));
  return { ok: true, match, ...(converted ? { converted } : {}) };
}

function otherConditionsMatch(rule: PolicyRule, batch: PolicyBatch, signals: readonly string[]): boolean {
  if (rule.companyId && rule.companyId !== batch.companyId) return false;
  if (rule.currency && rule.currency !== batch.currency) return false;
  if (rule.risk) {
    if (
      rule.risk.mode === "any"
        ? signals.length === 0
        : !signals.some((s) => (rule.risk as { kinds: string[] }).kinds.includes(s))
    )
      return false;
  }
  return true;
}

function decisionOf(rule: PolicyRule, groups: GroupNames, extra: Partial<PolicyDecision> = {}): PolicyDecision {
  return {
    rule,
    requiredApprovals: rule.requiredApprovals,
    eligibleRoles: rule.eligibleRoles,
    eligibleGroupIds: rule.eligibleGroupIds,
    explanation: describeRule(rule, groups),
    ...extra,
  };
}

/**
 * The policy decision for a batch.
 * @param rules every rule, any order (sorted by `position` here)
 * @param signals the codes of the batch's risk signals at submission
 * @param groups group names by id, for the explanation
 */
export function evaluatePolicy(
  rules: readonly PolicyRule[],
  batch: PolicyBatch,
  fx: FxConverter,
  signals: readonly string[],
  groups: GroupNames = new Map(),
): PolicyDecision {
  const ordered = [...rules].sort((a, b) => a.position - b.position);
  const undecidable: { rule: PolicyRule; why: string }[] = [];
  for (const rule of ordered) {
    if (!otherConditionsMatch(rule, batch, signals)) continue;
    const amount = amountMatches(rule, batch, fx);
    if (!amount.ok) {
      undecidable.push({ rule, why: amount.why });
      continue;
    }
    if (!amount.match) continue;
    if (undecidable.length === 0)
      return decisionOf(rule, groups, amount.converted ? { converted: amount.converted } : {});
    // An earlier rule might have applied had its amount been known: take the strictest candidate.
    const candidates = [...undecidable.map((u) => u.rule), rule];
    const strictest = candidates.reduce((a, b) => (b.requiredApprovals > a.requiredApprovals ? b : a));
    const d = decisionOf(strictest, groups, { failClosed: "fx_missing" });
    return { ...d, explanation: `${d.explanation} — applied fail-closed: ${undecidable[0]?.why}` };
  }
  if (undecidable.length) {
    const strictest = undecidable
      .map((u) => u.rule)
      .reduce((a, b) => (b.requiredApprovals > a.requiredApprovals ? b : a));
    const d = decisionOf(strictest, groups, { failClosed: "fx_missing" });
    return { ...d, explanation: `${d.explanation} — applied fail-closed: ${undecidable[0]?.why}` };
  }
  return {
    rule: null,
    requiredApprovals: NO_RULE_REQUIRED,
    eligibleRoles: ["approver"],
    eligibleGroupIds: [],
    explanation: `No rule matched → ${NO_RULE_REQUIRED} approvers from any approver (fail-closed default)`,
    failClosed: "no_rule",
  };
}
