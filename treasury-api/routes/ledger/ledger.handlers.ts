/** Ledger handlers: accounts, their transactions, balances, coverage and intraday points, and transactions. */
import type { AppRouteHandler, RouteContext } from "../../lib/context";
import { requireCaller } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { daysBetween, shiftDate } from "../../lib/dates";
import { jsonListHandler, listHandler } from "../../lib/lists";
import { SUMMARY_WINDOW_MAX_DAYS, lookupIds } from "@treasury/contract/list-queries";
import * as repo from "../../db/repos/ledger";
import * as r from "./ledger.routes";

/** The account of an `/accounts/{id}/…` list (404 outside the caller's scope). */
const accountOf = (c: RouteContext<typeof r.accountTransactionsRoute>) =>
  repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id);

export const listAccounts = listHandler(r.listAccountsRoute, {
  load: (c, q, paging) => repo.listAccounts(c.get("db"), c.get("scope"), q, paging, paging.needsCount),
});

export const upsertAccount: AppRouteHandler<typeof r.upsertAccountRoute> = async (c) => {
  const body = c.req.valid("json");
  const header = c.get("companyId");
  const companyIds = requireCaller(c).companyIds;
  if (header ? body.company_id !== header : !companyIds.includes(body.company_id)) {
    throw fieldError("company_id", header ? "must equal the X-Company-ID header" : "is not a company of this tenant");
  }
  const { account, created } = await repo.upsertAccount(c.get("db"), c.get("scope"), companyIds, body);
  return created ? c.json(account, 201) : c.json(account, 200);
};

export const getAccount: AppRouteHandler<typeof r.getAccountRoute> = async (c) =>
  c.json(repo.toAccount(await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id)), 200);

export const listAccountTransactions = jsonListHandler(r.accountTransactionsRoute, {
  parent: (c) => accountOf(c),
  load: (c, q, paging, account) =>
    repo.listTransactionsJson(
      c.get("db"),
      c.get("scope"),
      { accountId: account.id, fromDate: q.from_date, toDate: q.to_date, direction: q.direction },
      paging,
      paging.needsCount,
    ),
});

export const listAccountBalances = listHandler(r.accountBalancesRoute, {
  parent: (c) => accountOf(c),
  load: (c, q, paging, account) =>
    repo.listBalances(
      c.get("db"),
      c.get("scope"),
      account.id,
      { fromDate: q.from_date, toDate: q.to_date, balanceType: q.balance_type },
      paging,
      paging.needsCount,
    ),
});

export const listAccountCoverage = listHandler(r.accountCoverageRoute, {
  parent: (c) => accountOf(c),
  load: (c, q, paging, account) =>
    repo.listCoverage(
      c.get("db"),
      c.get("scope"),
      account.id,
      { fromDate: q.from_date, toDate: q.to_date },
      paging,
      paging.needsCount,
    ),
});

export const listAccountIntraday = listHandler(r.accountIntradayRoute, {
  parent: (c, q) => {
    if (q.date && (q.from_date || q.to_date)) throw fieldError("date", "cannot be combined with from_date or to_date");
    return accountOf(c);
  },
  load: (c, q, paging, account) =>
    repo.listIntraday(
      c.get("db"),
      c.get("scope"),
      account.id,
      { date: q.date, fromDate: q.from_date, toDate: q.to_date, balanceType: q.balance_type },
      paging,
      paging.needsCount,
    ),
});

export const listTransactions = jsonListHandler(r.listTransactionsRoute, {
  load: (c, q, paging) =>
    repo.listTransactionsJson(
      c.get("db"),
      c.get("scope"),
      {
        accountId: q.account_id,
        fromDate: q.from_date,
        toDate: q.to_date,
        direction: q.direction,
        currency: q.currency,
      },
      paging,
      paging.needsCount,
    ),
});

export const getTransaction: AppRouteHandler<typeof r.getTransactionRoute> = async (c) =>
  c.json(await repo.getTransaction(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

/** Extension: the transactions named by `ids`, one page of them (the lookup holds at most 100). */
export const lookupTransactions = listHandler(r.lookupTransactionsRoute, {
  load: async (c, q, paging) => {
    const rows = await repo.lookupTransactions(c.get("db"), c.get("scope"), lookupIds(q.ids));
    return { rows: rows.slice(paging.offset, paging.offset + paging.limit), count: rows.length };
  },
});

/** Extension: accounts with the balances and coverage of one window (400 naming from_date when it is too long). */
export const listAccountSummaries = listHandler(r.accountSummariesRoute, {
  load: (c, q, paging) => {
    const toDate = q.to_date ?? new Date().toISOString().slice(0, 10);
    const fromDate = q.from_date ?? shiftDate(toDate, -7);
    if (daysBetween(fromDate, toDate) + 1 > SUMMARY_WINDOW_MAX_DAYS)
      throw fieldError("from_date", `must be at most ${SUMMARY_WINDOW_MAX_DAYS} days before to_date (inclusive)`);
    return repo.listAccountSummaries(
      c.get("db"),
      c.get("scope"),
      { currency: q.currency, status: q.status, fromDate, toDate },
      paging,
      paging.needsCount,
    );
  },
});
