/**
 * Cashflow categories: the admin's ordered rules and the pure function that puts a transaction in a category.
 *
 * A rule names a category and any of these conditions (all given ones must hold; none given matches everything):
 * - `counterparty_contains`: case-insensitive substring of the counterparty name;
 * - `remittance_contains`: case-insensitive substring of the remittance text;
 * - `iban`: an IBAN, compared in electronic format (no spaces, upper case, via ibantools) with the transaction's
 *   counterparty IBAN when the bank gives one, else with any IBAN written in the remittance text (the public
 *   Transaction carries no counterparty IBAN, so remittance is where one usually appears);
 * - `direction`: `credit` or `debit`;
 * - `min_amount` (inclusive) / `max_amount` (exclusive): bounds on the absolute amount, decimal strings.
 *
 * The first rule in `position` order that matches decides; a transaction no rule matches is `UNCATEGORISED`.
 */
import Decimal from "decimal.js";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { z } from "zod";

/** The category of a transaction no rule matches; a category of its own in reports and exports. */
export const UNCATEGORISED = "Uncategorised";

const Amount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, "must be a decimal amount with at most 2 decimals, e.g. 100.00");

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((s) => (s ? s : null));

/** An admin's category rule (create / update / preview). Nulls and empty strings mean "any". */
export const CategoryRuleInput = z
  .object({
    category: z
      .string()
      .trim()
      .min(1, "is required")
      .max(60, "must be at most 60 characters")
      .refine((c) => c.toLowerCase() !== UNCATEGORISED.toLowerCase(), `must not be "${UNCATEGORISED}"`),
    counterparty_contains: optionalText(100),
    remittance_contains: optionalText(140),
    iban: z
      .string()
      .trim()
      .nullable()
      .default(null)
      .transform((s) => (s ? (electronicFormatIBAN(s) ?? s) : null))
      .refine((s) => s === null || isValidIBAN(s), "must be a valid IBAN, e.g. NO93 8601 1117 947"),
    direction: z.enum(["credit", "debit"], { message: "must be credit or debit" }).nullable().default(null),
    min_amount: Amount.nullable().default(null),
    max_amount: Amount.nullable().default(null),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.min_amount !== null && r.max_amount !== null && new Decimal(r.min_amount).gte(r.max_amount))
      ctx.addIssue({ code: "custom", path: ["max_amount"], message: "must be greater than min_amount" });
  });
export type CategoryRuleInput = z.output<typeof CategoryRuleInput>;

/** A stored rule: the input plus its id and 1-based position (1 is tried first). */
export interface CategoryRule extends CategoryRuleInput {
  id: string;
  position: number;
}

/** What categorising reads of a transaction; `amount` is the absolute decimal string. */
export interface CategorisableTransaction {
  direction: "credit" | "debit";
  amount: string;
  counterparty_name: string;
  remittance: string;
  counterparty_iban?: string | null;
}

function electronic(text: string): string {
  return text.replace(/[\s-]/g, "").toUpperCase();
}

/** True when `rule`'s conditions all hold for `tx`. */
export function ruleMatches(rule: CategoryRuleInput, tx: CategorisableTransaction): boolean {
  if (rule.direction && rule.direction !== tx.direction) return false;
  const amount = new Decimal(tx.amount).abs();
  if (rule.min_amount !== null && amount.lt(rule.min_amount)) return false;
  if (rule.max_amount !== null && amount.gte(rule.max_amount)) return false;
  if (
    rule.counterparty_contains &&
    !tx.counterparty_name.toLocaleLowerCase().includes(rule.counterparty_contains.toLocaleLowerCase())
  )
    return false;
  if (
    rule.remittance_contains &&
    !tx.remittance.toLocaleLowerCase().includes(rule.remittance_contains.toLocaleLowerCase())
  )
    return false;
  if (rule.iban) {
    const want = electronicFormatIBAN(rule.iban) ?? electronic(rule.iban);
    const own = tx.counterparty_iban ? (electronicFormatIBAN(tx.counterparty_iban) ?? null) : null;
    if (own !== null ? own !== want : !electronic(tx.remittance).includes(want)) return false;
  }
  return true;
}

/**
 * The category of `tx`: that of the first matching rule in `position` order (the input order need not be sorted),
 * else `UNCATEGORISED`. Pure; no I/O.
 */
export function categorise(rules: readonly CategoryRule[], tx: CategorisableTransaction): string {
  const ordered = [...rules].sort((a, b) => a.position - b.position);
  for (const r of ordered) if (ruleMatches(r, tx)) return r.category;
  return UNCATEGORISED;
}
