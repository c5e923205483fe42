/** Test-only: a category rule for the categories' and group reports' tests (docs/guides/fx-and-group-reporting.md). */
import type { CategoryRule } from "./rules";

/** A category rule at `position` that matches on nothing but the fields given (id `r<position>`). */
export function testRule(position: number, fields: Partial<CategoryRule> & { category: string }): CategoryRule {
  return {
    id: `r${position}`,
    position,
    counterparty_contains: null,
    remittance_contains: null,
    iban: null,
    direction: null,
    min_amount: null,
    max_amount: null,
    ...fields,
  };
}
