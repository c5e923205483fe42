/**
 * Cashflow per category: the transactions of a range summed per currency and category (pure).
 * Amounts are decimal strings with 2 decimals; inflow and outflow are positive, net = inflow − outflow.
 */
import Decimal from "decimal.js";
import { categorise, UNCATEGORISED, type CategorisableTransaction, type CategoryRule } from "./rules";

/** One row of the category breakdown. */
export interface CategoryCashflowRow {
  currency: string;
  category: string;
  count: number;
  inflow: string;
  outflow: string;
  net: string;
}

/**
 * Sums `txs` per (currency, category). Rows are sorted by currency, then by category with
 * `Uncategorised` last.
 */
export function cashflowByCategory(
  rules: readonly CategoryRule[],
  txs: Iterable<CategorisableTransaction & { currency: string }>,
): CategoryCashflowRow[] {
  const acc = new Map<
    string,
    { currency: string; category: string; count: number; inflow: Decimal; outflow: Decimal }
  >();
  for (const tx of txs) {
    const category = categorise(rules, tx);
    const key = `${tx.currency}\u0000${category}`;
    const row = acc.get(key) ?? {
      currency: tx.currency,
      category,
      count: 0,
      inflow: new Decimal(0),
      outflow: new Decimal(0),
    };
    row.count += 1;
    const amount = new Decimal(tx.amount).abs();
    if (tx.direction === "credit") row.inflow = row.inflow.plus(amount);
    else row.outflow = row.outflow.plus(amount);
    acc.set(key, row);
  }
  const rank = (c: string) => (c === UNCATEGORISED ? 1 : 0);
  return [...acc.values()]
    .sort(
      (a, b) =>
        a.currency.localeCompare(b.currency) ||
        rank(a.category) - rank(b.category) ||
        a.category.localeCompare(b.category),
    )
    .map((r) => ({
      currency: r.currency,
      category: r.category,
      count: r.count,
      inflow: r.inflow.toFixed(2),
      outflow: r.outflow.toFixed(2),
      net: r.inflow.minus(r.outflow).toFixed(2),
    }));
}
