/**
 * The ledger area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * accounts and their reads, transactions and their CSV export, statement uploads and bank connection health
 * (docs/bank-channels.md#operations).
 */
import "server-only";
import { z } from "zod";
import { AccountUpsert, STATEMENT_MAX_BODY_BYTES } from "@treasury/contract";
import {
  AccountsQuery,
  AccountTransactionsQuery,
  BalancesQuery,
  CoverageQuery,
  IntradayQuery,
  TransactionsQuery,
} from "@/lib/bff/inputs";
import { listBankConnectionHealth } from "@/lib/bff/queries/bank-connections";
import { exportTransactions } from "@/lib/bff/queries/exports";
import { listAccounts, listTransactions, upsertAccount } from "@/lib/bff/queries/ledger";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { uploadStatements } from "@/lib/bff/queries/statements";
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";
import { ledgerEndpoints as e } from "./endpoints";

/** The transactions filter plus the view's text search and category (applied here to the streamed rows). */
const ExportQuery = TransactionsQuery.extend({
  q: z.string().trim().min(1).max(100).optional(),
  category: z.string().trim().min(1).max(60, "must be at most 60 characters").optional(),
});

export const ledgerRoutes = defineRoutes(e, {
  /** GET /accounts — the selected company's accounts. */
  accounts: declareRoute(e.accounts, { permission: "ledger.read", query: AccountsQuery }, (ctx) =>
    listAccounts(ctx, ctx.query),
  ),

  /** POST /accounts — account upsert (admin); company_id must be the selected company. */
  upsertAccount: declareRoute(
    e.upsertAccount,
    {
      permission: "organization.manage",
      company: "body",
      body: AccountUpsert,
      audit: { action: "account.upsert", objectType: "account" },
    },
    (ctx) => upsertAccount(ctx, ctx.body),
  ),

  /** GET /accounts/{id} */
  account: declareRoute(e.account, { permission: "ledger.read", params: IdParams }, (ctx) =>
    treasury().getAccount(ctx.read, ctx.params.id),
  ),

  /** GET /accounts/{id}/transactions */
  accountTransactions: declareRoute(
    e.accountTransactions,
    { permission: "ledger.read", params: IdParams, query: AccountTransactionsQuery },
    async (ctx) =>
      toBffPage(await treasury().listAccountTransactions(ctx.read, ctx.params.id, clientFilters(ctx.query))),
  ),

  /** GET /accounts/{id}/coverage */
  coverage: declareRoute(
    e.coverage,
    { permission: "ledger.read", params: IdParams, query: CoverageQuery },
    async (ctx) => toBffPage(await treasury().listAccountCoverage(ctx.read, ctx.params.id, clientFilters(ctx.query))),
  ),

  /** GET /accounts/{id}/balances */
  balances: declareRoute(
    e.balances,
    { permission: "ledger.read", params: IdParams, query: BalancesQuery },
    async (ctx) => toBffPage(await treasury().listAccountBalances(ctx.read, ctx.params.id, clientFilters(ctx.query))),
  ),

  /** GET /accounts/{id}/intraday */
  intraday: declareRoute(
    e.intraday,
    { permission: "ledger.read", params: IdParams, query: IntradayQuery },
    async (ctx) => toBffPage(await treasury().listAccountIntraday(ctx.read, ctx.params.id, clientFilters(ctx.query))),
  ),

  /** GET /transactions — the selected company's transactions. */
  transactions: declareRoute(e.transactions, { permission: "ledger.read", query: TransactionsQuery }, (ctx) =>
    listTransactions(ctx, ctx.query),
  ),

  /** GET /transactions/{id} */
  transaction: declareRoute(e.transaction, { permission: "ledger.read", params: IdParams }, (ctx) =>
    treasury().getTransaction(ctx.read, ctx.params.id),
  ),

  /** GET /transactions as a streamed CSV of the current filter (every page). */
  exportTransactions: declareRoute(e.exportTransactions, { permission: "ledger.read", query: ExportQuery }, (ctx) =>
    exportTransactions(ctx, ctx.query),
  ),

  /**
   * POST: multipart upload of ISO 20022 statement files (parts `files`), forwarded
   * to the API's POST /statements; one summary per file. Audited.
   */
  uploadStatements: declareRoute(
    e.uploadStatements,
    {
      permission: "statements.import",
      maxBody: STATEMENT_MAX_BODY_BYTES,
      audit: { action: "statements.import", objectType: "statement_upload" },
    },
    (ctx) => uploadStatements(ctx, ctx.request),
  ),

  /**
   * GET /api/treasury/bank-connections — the selected company's bank connections with their health (treasurers,
   * admins; read-only). 404 when the API has no bank connections extension (docs/bank-channels.md#operations).
   */
  bankConnections: declareRoute(e.bankConnections, { permission: "bank_connections.read" }, async (ctx) => ({
    data: await listBankConnectionHealth(ctx),
  })),
});
