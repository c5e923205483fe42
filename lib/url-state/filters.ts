/**
 * URL state of the list views. Accounts: currency, bank,
 * status, sorting and page. Transactions: the date range of
 * `./date-range`, direction, currency, account and a text search. Every key
 * is optional; only the spec's list filters (docs/treasury-api.md#list-conventions: `from_date`,
 * `to_date`, `account_id`, `direction`, `currency`, `status`, `page`) are
 * sent upstream. Bank, coverage gaps and sorting of accounts are applied by
 * the BFF to every account of the company (`lib/views/account-list`); the
 * transactions text search runs in the browser over every page of the range.
 */
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { dateRangeParsers } from "./date-range";
import { parseAsCurrency, parseAsPage, parseAsSearchText, parseAsUuid } from "./parsers";

export const ACCOUNT_SORTS = [
  "name",
  "-name",
  "bank",
  "-bank",
  "currency",
  "-currency",
  "balance",
  "-balance",
  "available",
  "-available",
] as const;
export type AccountSort = (typeof ACCOUNT_SORTS)[number];

/** Accounts list URL state. */
export const accountFilterParsers = {
  currency: parseAsCurrency,
  bank: parseAsSearchText,
  status: parseAsStringLiteral(["active", "closed"] as const),
  sort: parseAsStringLiteral(ACCOUNT_SORTS),
  page: parseAsPage,
  /** `gaps`: only accounts with a statement gap in the coverage window (the overview links here). */
  coverage: parseAsStringLiteral(["gaps"] as const),
};
export const loadAccountFilters = createLoader(accountFilterParsers);

/** Transactions list URL state. */
export const transactionFilterParsers = {
  ...dateRangeParsers,
  direction: parseAsStringLiteral(["credit", "debit"] as const),
  currency: parseAsCurrency,
  account: parseAsUuid,
  q: parseAsSearchText,
  /** A cashflow category name (filtered on the loaded rows). */
  category: parseAsString,
};
export const loadTransactionFilters = createLoader(transactionFilterParsers);

/** `"-balance"` → `{ id: "balance", desc: true }` (TanStack Table sorting state). */
export function sortToState(sort: AccountSort | null): { id: string; desc: boolean }[] {
  if (!sort) return [];
  return sort.startsWith("-") ? [{ id: sort.slice(1), desc: true }] : [{ id: sort, desc: false }];
}

/** The inverse of `sortToState`; null when the column is not sortable in the URL. */
export function stateToSort(state: readonly { id: string; desc: boolean }[]): AccountSort | null {
  const first = state[0];
  if (!first) return null;
  const s = `${first.desc ? "-" : ""}${first.id}`;
  return (ACCOUNT_SORTS as readonly string[]).includes(s) ? (s as AccountSort) : null;
}

/** Case-insensitive match of a text search against some fields (client-side filter on loaded rows). */
export function matchesText(q: string | null, ...fields: (string | null | undefined)[]): boolean {
  if (!q) return true;
  const needle = q.toLocaleLowerCase();
  return fields.some((f) => f?.toLocaleLowerCase().includes(needle));
}
