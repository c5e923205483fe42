/**
 * The accounts list over all accounts of a company: the bank
 * filter, the coverage-gap filter and sorting are not filters of the spec's
 * `GET /accounts` (docs/treasury-api.md#ledger lists only `currency` and `status` for accounts),
 * so the BFF applies them to every account it read and pages the result
 * itself. Pure functions on plain shapes; used by
 * `lib/bff/queries/account-rows` and unit-tested on their own.
 */
import Decimal from "decimal.js";
import type { Account } from "@treasury/contract";
import { matchesText, type AccountSort } from "../url-state/filters";
import type { AccountRow } from "./accounts";
import type { CurrencyTotal } from "../totals";
import type { BffPage } from "./bff-page";

/** What the list needs beyond the spec's filters; null means "not set". */
export interface AccountListOptions {
  bank: string | null;
  coverage: "gaps" | null;
  sort: AccountSort | null;
}

/** True when a filter or sort is set that the API cannot apply, so every account must be read. */
export function spansAllAccounts(o: AccountListOptions): boolean {
  return Boolean(o.bank || o.coverage || o.sort);
}

/** True when every matching account's balances and coverage are needed before a page can be cut. */
export function needsEveryRow(o: AccountListOptions): boolean {
  return o.coverage === "gaps" || sortKey(o.sort) === "balance" || sortKey(o.sort) === "available";
}

function sortKey(sort: AccountSort | null): string | null {
  return sort ? sort.replace(/^-/, "") : null;
}

/** Case-insensitive "bank name contains" (the URL may hold a typed text, the select an exact name). */
export function matchesBank(account: Pick<Account, "bank_name">, bank: string | null): boolean {
  return matchesText(bank, account.bank_name);
}

/** True when any day of the row's coverage window is partial or missing (the overview's count uses the same rule). */
export function hasCoverageGap(row: Pick<AccountRow, "coverage">): boolean {
  return row.coverage.some((c) => c.state !== "complete");
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

const TEXT_KEYS: Record<string, (a: Account) => string> = {
  name: (a) => a.name,
  bank: (a) => a.bank_name,
  currency: (a) => a.currency,
};

/**
 * Comparator of accounts for a text sort (`name`, `bank`, `currency`, `-` for
 * descending); ties fall back to name, then id, so pages never overlap.
 * Returns null for a sort that needs balances (see `compareRows`).
 */
export function compareAccounts(sort: AccountSort | null): ((a: Account, b: Account) => number) | null {
  const key = sortKey(sort) ?? "name";
  const get = TEXT_KEYS[key];
  if (!get) return null;
  const dir = sort?.startsWith("-") ? -1 : 1;
  return (a, b) =>
    dir * collator.compare(get(a), get(b)) || collator.compare(a.name, b.name) || a.id.localeCompare(b.id);
}

/**
 * Comparator of rows for any sort. Balances compare as decimals (never
 * floats); an account without a balance sorts last in both directions.
 * Sorting mixes currencies as the column does; the totals stay per currency.
 */
export function compareRows(sort: AccountSort | null): (a: AccountRow, b: AccountRow) => number {
  const text = compareAccounts(sort);
  if (text) return (a, b) => text(a.account, b.account);
  const pick =
    sortKey(sort) === "available" ? (r: AccountRow) => r.available?.balance : (r: AccountRow) => r.booked?.balance;
  const dir = sort?.startsWith("-") ? -1 : 1;
  const byName = compareAccounts("name");
  return (a, b) => {
    const x = pick(a);
    const y = pick(b);
    if (x === undefined || y === undefined) {
      if (x !== y) return x === undefined ? 1 : -1;
    } else {
      const c = new Decimal(x).cmp(y);
      if (c !== 0) return dir * c;
    }
    return byName ? byName(a.account, b.account) : 0;
  };
}

/** One page of a list the BFF filtered itself (the same shape as an upstream page). */
export interface ListPage<T> {
  items: T[];
  count: number;
  page: number;
  page_size: number;
  total_pages: number;
  has_next: boolean;
  has_previous: boolean;
}

/**
 * Cuts page `page` (1-indexed) of `pageSize` rows. A page past the end is
 * clamped to the last page, so a link kept from before a filter change
 * still shows rows. @throws RangeError when pageSize < 1
 */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): ListPage<T> {
  if (pageSize < 1) throw new RangeError("pageSize must be at least 1");
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));
  const p = Math.min(Math.max(1, Math.floor(page)), totalPages);
  return {
    items: items.slice((p - 1) * pageSize, p * pageSize),
    count: items.length,
    page: p,
    page_size: pageSize,
    total_pages: totalPages,
    has_next: p < totalPages,
    has_previous: p > 1,
  };
}

/** The booked-balance totals of the list: per currency, over `rows`, with what they cover. */
export interface AccountTotals {
  /** `all`: every account matching the filters; `page`: only the accounts on this page. */
  scope: "all" | "page";
  totals: CurrencyTotal[];
}

/**
 * What the accounts view shows: one page of rows, booked totals per currency and, when set, why a filter was not
 * applied.
 */
export interface AccountListView {
  page: BffPage<AccountRow>;
  totals: AccountTotals;
  /** True when filters and sorting ran over every account (not just the API's page). */
  spansAll: boolean;
  notice: string | null;
}
