/** Ledger area: wiring of routes to repositories (spec §4 Ledger). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { checkDateRange, listBody, resolvePaging } from "../../lib/lists";
import * as r from "./ledger.routes";
import * as repo from "../../db/repos/ledger";

export function registerLedgerRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listAccountsRoute, async (c) => {
    const q = c.req.valid("query");
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listAccounts(c.get("db"), c.get("scope"), q, paging, paging.needsCount);
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.upsertAccountRoute, async (c) => {
    const body = c.req.valid("json");
    const header = c.get("companyId");
    if (header ? body.company_id !== header : !(c.get("caller")?.companyIds ?? []).includes(body.company_id)) {
      throw fieldError("company_id", header ? "must equal the X-Company-ID header" : "is not a company of this tenant");
    }
    const { account, created } = await repo.upsertAccount(
      c.get("db"),
      c.get("scope"),
      c.get("caller")?.companyIds ?? [],
      body,
    );
    return created ? c.json(account, 201) : c.json(account, 200);
  });

  api.openapi(r.getAccountRoute, async (c) =>
    c.json(repo.toAccount(await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id)), 200),
  );

  api.openapi(r.accountTransactionsRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const account = await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listTransactions(
      c.get("db"),
      c.get("scope"),
      { accountId: account.id, fromDate: q.from_date, toDate: q.to_date, direction: q.direction },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.accountBalancesRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const account = await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listBalances(
      c.get("db"),
      c.get("scope"),
      account.id,
      { fromDate: q.from_date, toDate: q.to_date, balanceType: q.balance_type },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.accountCoverageRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const account = await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listCoverage(
      c.get("db"),
      c.get("scope"),
      account.id,
      { fromDate: q.from_date, toDate: q.to_date },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.accountIntradayRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    if (q.date && (q.from_date || q.to_date)) throw fieldError("date", "cannot be combined with from_date or to_date");
    const account = await repo.getAccountRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listIntraday(
      c.get("db"),
      c.get("scope"),
      account.id,
      { date: q.date, fromDate: q.from_date, toDate: q.to_date, balanceType: q.balance_type },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.listTransactionsRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listTransactions(
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
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.getTransactionRoute, async (c) =>
    c.json(await repo.getTransaction(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
}
