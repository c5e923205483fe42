/**
 * The accounts list over all accounts of the selected company.
 *
 * The spec's `GET /accounts` filters by `currency` and `status` only (spec
 * §4 Form B list filters) and has no sort; the balances and the coverage of
 * an account are per-account reads (`/accounts/{id}/balances`,
 * `/accounts/{id}/coverage`) with no batch form. So:
 * - no bank / coverage filter and no sort: the API pages (Form B
 *   `page` / `page_size`, Form A `limit`), and only the accounts of the page
 *   are enriched (two reads each);
 * - bank filter or a text sort: every account is listed (pages of 1,000,
 *   usually one call), filtered and sorted here, and only the page shown is
 *   enriched;
 * - coverage-gap filter or a balance sort: every matching account is
 *   enriched (at most `MAX_ENRICHED_ACCOUNTS`; beyond that the view falls
 *   back to API order and says why).
 * When the API offers account summaries (./account-summaries.ts), the list
 * and the balances and coverage of every account come from that one shared
 * read instead of `GET /accounts` and two reads per account.
 * Enriched rows and the account list are cached for 30 s per company, so
 * sorting and filtering again does not repeat the reads (docs/treasury-api.md#limits rate
 * limits per client); an account upsert through the BFF drops the cache.
 */
import "server-only";
import type { Account } from "@treasury/contract";
import { addDaysIso, todayUtc } from "../../dates";
import { totalsByCurrency } from "../../totals";
import { collectAll } from "../../treasury-client";
import type { AccountSort } from "../../url-state/filters";
import { buildAccountRow, type AccountRow } from "../../views/accounts";
import {
  compareAccounts,
  compareRows,
  hasCoverageGap,
  matchesBank,
  needsEveryRow,
  pageOf,
  spansAllAccounts,
  type AccountListView,
  type AccountTotals,
} from "../../views/account-list";
import { background, companyCall, type BffContext } from "../context";
import { treasury } from "../../server/treasury";
import { TtlCache } from "../ttl-cache";
import { toBffPage } from "./page";
import { mapLimit } from "./map-limit";
import { accountSummaries, invalidateAccountSummaries } from "./account-summaries";

export type { AccountListView };

/** Above this many matching accounts, a balance sort or the gap filter is refused (2 reads per account). */
export const MAX_ENRICHED_ACCOUNTS = 500;
/** Rows per page of the accounts list. */
export const ACCOUNTS_PAGE_SIZE = 50;
const CACHE_MS = 30_000;
/**
 * Rows are derived from reads the upstream cache already keeps (and drops on the writes that change them); they are
 * kept only long enough for one view's reads to share them, so a row is never older than its balances and coverage.
 */
const ROW_CACHE_MS = 2_000;

const g = globalThis as typeof globalThis & {
  __accountRowCache?: TtlCache<AccountRow>;
  __accountListCache?: TtlCache<Account[]>;
};
const rowCache = (g.__accountRowCache ??= new TtlCache<AccountRow>({ ttlMs: ROW_CACHE_MS, maxEntries: 20_000 }));
const listCache = (g.__accountListCache ??= new TtlCache<Account[]>({ ttlMs: CACHE_MS, maxEntries: 500 }));

/** The window of the accounts list's coverage strip: the last 7 completed days (today's statement arrives tomorrow). */
export function recentWindow(today = todayUtc()): { from: string; to: string } {
  return { from: addDaysIso(today, -7), to: addDaysIso(today, -1) };
}

/** Drops the cached accounts and rows of a company (after an account write). */
export function invalidateAccountCache(companyId: string): void {
  rowCache.dropPrefix(`${companyId}|`);
  listCache.dropPrefix(`${companyId}|`);
  invalidateAccountSummaries();
}

/**
 * An account with its latest booked / available balance and its coverage of
 * the last 7 completed days (two reads, cached).
 */
export function accountRow(ctx: BffContext, account: Account, today = todayUtc()): Promise<AccountRow> {
  // One balances and one coverage read per account: enrichment, so it yields to page loads when the budget is low.
  const call = background(companyCall(ctx));
  return rowCache.get(`${call.companyId}|${today}|${account.id}`, async () => {
    const { from, to } = recentWindow(today);
    // One call for every account when the API offers the summaries (same balances window: today − 7 to today).
    const summary = (await accountSummaries(ctx.requestId, today))?.get(account.id);
    if (summary)
      return buildAccountRow(
        account,
        summary.balances,
        summary.coverage.filter((d) => d.date >= from && d.date <= to),
        from,
        to,
        today,
      );
    const [balances, coverage] = await Promise.all([
      collectAll(treasury().listAccountBalances(call, account.id, { from_date: from, to_date: today, pageSize: 1000 })),
      collectAll(treasury().listAccountCoverage(call, account.id, { from_date: from, to_date: to, pageSize: 1000 })),
    ]);
    return buildAccountRow(account, balances, coverage, from, to, today);
  });
}

/** Rows of many accounts, six reads in flight at a time. */
export function accountRows(ctx: BffContext, accounts: readonly Account[], today = todayUtc()): Promise<AccountRow[]> {
  return mapLimit(accounts, 6, (a) => accountRow(ctx, a, today));
}

/** Every account of the selected company matching the spec filters, all pages (cached). */
export function allAccounts(
  ctx: BffContext,
  q: { currency?: string; status?: "active" | "closed" } = {},
): Promise<Account[]> {
  const call = companyCall(ctx);
  return listCache.get(`${call.companyId}|${q.currency ?? ""}|${q.status ?? ""}`, async () => {
    const summaries = await accountSummaries(ctx.requestId);
    // The summaries list the accounts in the API's own order (name, id), so the filtered list is what GET /accounts
    // would answer.
    if (summaries)
      return [...summaries.values()]
        .map((s) => s.account)
        .filter(
          (a) =>
            a.company_id === call.companyId &&
            (!q.currency || a.currency === q.currency) &&
            (!q.status || a.status === q.status),
        );
    return collectAll(treasury().listAccounts(call, { pageSize: 1000, currency: q.currency, status: q.status }), {
      maxPages: 100,
    });
  });
}

export interface AccountListQuery {
  page?: number;
  currency?: string;
  status?: "active" | "closed";
  bank?: string | null;
  coverage?: "gaps" | null;
  sort?: AccountSort | null;
}

function bookedTotals(rows: readonly AccountRow[], scope: AccountTotals["scope"]): AccountTotals {
  const booked = rows.flatMap((r) => (r.booked ? [r.booked] : []));
  return {
    scope,
    totals: totalsByCurrency(
      booked,
      (b) => b.currency,
      (b) => b.balance,
    ),
  };
}

/** The API's own page (no filter beyond the spec's). */
async function apiPage(ctx: BffContext, q: AccountListQuery, today: string): Promise<AccountListView> {
  const page = await treasury().listAccounts(companyCall(ctx), {
    page: q.page,
    pageSize: ACCOUNTS_PAGE_SIZE,
    currency: q.currency,
    status: q.status,
  });
  const rows = await accountRows(ctx, page.items, today);
  // Form B: one page holds every account; Form A (no count) cannot tell, so its totals say "this page".
  const single = page.count !== null && page.next === null && page.previous === null;
  const { count, pageSize, totalPages, next, previous } = page;
  return {
    page: toBffPage({ items: rows, count, page: page.page, pageSize, totalPages, next, previous }),
    totals: bookedTotals(rows, single ? "all" : "page"),
    spansAll: false,
    notice: null,
  };
}

/**
 * One page of the accounts list with `q`'s filters and sort applied to all
 * accounts of the company (see the module comment for the reads it makes).
 * @throws BffError as the upstream reads do (403 without a company, 429/5xx after retries)
 */
export async function listAccountRows(ctx: BffContext, q: AccountListQuery = {}): Promise<AccountListView> {
  const opts = { bank: q.bank ?? null, coverage: q.coverage ?? null, sort: q.sort ?? null };
  const today = todayUtc();
  if (!spansAllAccounts(opts)) return apiPage(ctx, q, today);
  const accounts = (await allAccounts(ctx, { currency: q.currency, status: q.status })).filter((a) =>
    matchesBank(a, opts.bank),
  );
  if (!needsEveryRow(opts)) {
    const sorted = [...accounts].sort(compareAccounts(opts.sort) ?? undefined);
    const cut = pageOf(sorted, q.page ?? 1, ACCOUNTS_PAGE_SIZE);
    const rows = await accountRows(ctx, cut.items, today);
    return {
      page: { ...cut, items: rows },
      totals: bookedTotals(rows, cut.total_pages === 1 ? "all" : "page"),
      spansAll: true,
      notice: null,
    };
  }
  if (accounts.length > MAX_ENRICHED_ACCOUNTS) {
    const view = await apiPage(ctx, { page: q.page, currency: q.currency, status: q.status }, today);
    const what = opts.coverage ? "The coverage filter" : "Sorting by balance";
    return {
      ...view,
      notice:
        `${what} reads every account's balances and statements, and works for up to ${MAX_ENRICHED_ACCOUNTS} ` +
        `accounts; these filters match ${accounts.length}. Narrow by currency or bank first. ` +
        "Shown in the bank's order.",
    };
  }
  let rows = await accountRows(ctx, accounts, today);
  if (opts.coverage === "gaps") rows = rows.filter(hasCoverageGap);
  rows.sort(compareRows(opts.sort));
  return {
    page: pageOf(rows, q.page ?? 1, ACCOUNTS_PAGE_SIZE),
    totals: bookedTotals(rows, "all"),
    spansAll: true,
    notice: null,
  };
}
