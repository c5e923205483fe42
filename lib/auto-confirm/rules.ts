/**
 * Auto-confirm rules of reconciliation: the admin's input schema and the pure function that says whether a proposed
 * match meets a rule. Server and browser import it (no server code).
 *
 * A rule holds when every one of its conditions holds:
 * - the match is `proposed` and both its sides (instruction, transaction) are known;
 * - `min_score`: the match's score (0–100) is at least this;
 * - `exact_amount` (default on): the transaction's amount equals the instruction's, compared as decimals, in the same
 *   currency (a bank fee deducted from the amount fails it);
 * - `end_to_end_id` (default on): the transaction carries the instruction's end-to-end id, equal after trimming
 *   (case kept: it is an identifier);
 * - `company_id` (optional): the match's company;
 * - `currency` (optional): the instruction's currency;
 * - `max_amount` (optional, inclusive): the instruction's amount is at most this decimal.
 * The first enabled rule (creation order) that holds confirms the match on its behalf.
 */
import Decimal from "decimal.js";
import { z } from "zod";

const Amount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, "must be a decimal amount with at most 2 decimals, e.g. 10000.00");

/** An admin's rule (create / update). Null or empty company, currency and max amount mean "any". */
export const AutoRuleInput = z
  .object({
    name: z.string().trim().min(1, "is required").max(60, "must be at most 60 characters"),
    enabled: z.boolean({ message: "must be true or false" }).default(true),
    min_score: z
      .number({ message: "must be a whole number from 0 to 100" })
      .int("must be a whole number from 0 to 100")
      .min(0, "must be a whole number from 0 to 100")
      .max(100, "must be a whole number from 0 to 100"),
    exact_amount: z.boolean({ message: "must be true or false" }).default(true),
    end_to_end_id: z.boolean({ message: "must be true or false" }).default(true),
    company_id: z
      .union([z.uuid({ message: "must be a company id (UUID)" }), z.literal("")])
      .nullable()
      .default(null)
      .transform((s) => (s ? s : null)),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{3})?$/, "must be a three-letter ISO 4217 code, e.g. NOK")
      .nullable()
      .default(null)
      .transform((s) => (s ? s : null)),
    max_amount: z
      .union([Amount, z.literal("")])
      .nullable()
      .default(null)
      .transform((s) => (s ? s : null)),
  })
  .strict();
export type AutoRuleInput = z.output<typeof AutoRuleInput>;

/** A stored rule: the input plus its id. */
export interface AutoRule extends AutoRuleInput {
  id: string;
}

/** What a rule reads of a match and its two sides; amounts are positive decimal strings. */
export interface RuleCandidate {
  match: { state: string; score: number; company_id?: string | null };
  instruction: { amount: string; currency: string; end_to_end_id: string } | null;
  transaction: { amount: string; currency: string; end_to_end_id?: string | null } | null;
}

/** A condition of a rule, as `failedConditions` names it. */
export type RuleCondition =
  "state" | "sides" | "min_score" | "exact_amount" | "end_to_end_id" | "company_id" | "currency" | "max_amount";

/** Decimal equality that treats an unparsable amount as unequal (never throws). */
function sameAmount(a: string, b: string): boolean {
  try {
    return new Decimal(a).abs().eq(new Decimal(b).abs());
  } catch {
    return false;
  }
}

function atMost(a: string, max: string): boolean {
  try {
    return new Decimal(a).abs().lte(new Decimal(max));
  } catch {
    return false;
  }
}

/**
 * The conditions of `rule` that `c` fails, in the order above; empty when the rule holds. A disabled rule is
 * judged on its conditions all the same (the caller skips disabled rules).
 */
export function failedConditions(rule: AutoRuleInput, c: RuleCandidate): RuleCondition[] {
  const out: RuleCondition[] = [];
  if (c.match.state !== "proposed") out.push("state");
  const { instruction: i, transaction: t } = c;
  if (!i || !t) return [...out, "sides"];
  if (!(c.match.score >= rule.min_score)) out.push("min_score");
  if (rule.exact_amount && !(i.currency === t.currency && sameAmount(i.amount, t.amount))) out.push("exact_amount");
  if (rule.end_to_end_id) {
    const want = i.end_to_end_id.trim();
    if (!want || want !== (t.end_to_end_id ?? "").trim()) out.push("end_to_end_id");
  }
  if (rule.company_id && rule.company_id !== c.match.company_id) out.push("company_id");
  if (rule.currency && rule.currency !== i.currency) out.push("currency");
  if (rule.max_amount && !atMost(i.amount, rule.max_amount)) out.push("max_amount");
  return out;
}

/** True when `c` meets every condition of `rule`. */
export function ruleHolds(rule: AutoRuleInput, c: RuleCandidate): boolean {
  return failedConditions(rule, c).length === 0;
}

/** The first enabled rule of `rules` (in their order) that `c` meets, or null. */
export function firstHoldingRule<R extends AutoRuleInput>(rules: readonly R[], c: RuleCandidate): R | null {
  return rules.find((r) => r.enabled && ruleHolds(r, c)) ?? null;
}

/** One line describing a rule's conditions, e.g. "score ≥ 100 · exact amount · end-to-end id · NOK · ≤ 10000.00". */
export function describeRule(r: AutoRuleInput, companyName?: (id: string) => string | undefined): string {
  const parts = [`score ≥ ${r.min_score}`];
  if (r.exact_amount) parts.push("exact amount");
  if (r.end_to_end_id) parts.push("end-to-end id equal");
  if (r.company_id) parts.push(companyName?.(r.company_id) ?? "one company");
  if (r.currency) parts.push(r.currency);
  if (r.max_amount) parts.push(`amount ≤ ${r.max_amount}`);
  return parts.join(" · ");
}
