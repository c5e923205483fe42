/** Ledger area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./ledger.handlers";
import * as r from "./ledger.routes";

export function registerLedgerRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listAccountsRoute, h.listAccounts);
  api.openapi(r.upsertAccountRoute, h.upsertAccount);
  // Before /accounts/{id}, which would otherwise take "summaries" for an id (and answer 400).
  api.openapi(r.accountSummariesRoute, h.listAccountSummaries);
  api.openapi(r.getAccountRoute, h.getAccount);
  api.openapi(r.accountTransactionsRoute, h.listAccountTransactions);
  api.openapi(r.accountBalancesRoute, h.listAccountBalances);
  api.openapi(r.accountCoverageRoute, h.listAccountCoverage);
  api.openapi(r.accountIntradayRoute, h.listAccountIntraday);
  api.openapi(r.listTransactionsRoute, h.listTransactions);
  // Before /transactions/{id}, which would otherwise take "lookup" for an id (and answer 400).
  api.openapi(r.lookupTransactionsRoute, h.lookupTransactions);
  api.openapi(r.getTransactionRoute, h.getTransaction);
}
