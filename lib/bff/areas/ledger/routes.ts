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
import { uploadStatements } from "@/lib/bff/queries/statements";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";
import { apiPageById, readById, readByQuery, type ReadAccess } from "../read-routes";
import { ledgerEndpoints as e } from "./endpoints";

/** The transactions filter plus the view's text search and category (applied here to the streamed rows). */
const ExportQuery = TransactionsQuery.extend({
  q: z.string().trim().min(1).max(100).optional(),
  category: z.string().trim().min(1).max(60, "must be at most 60 characters").optional(),
});

/** The reads: the selected company's (`ledger.read`). */
const read: ReadAccess = { permission: "ledger.read" };

export const ledgerRoutes = defineRoutes(e, {
  /** GET /accounts — the selected company's accounts. */
  accounts: readByQuery(e.accounts, { ...read, query: AccountsQuery }, listAccounts),

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
  account: readById(e.account, read, (ctx, id) => treasury().getAccount(ctx.read, id)),

  /** GET /accounts/{id}/transactions */
  accountTransactions: apiPageById(e.accountTransactions, { ...read, query: AccountTransactionsQuery }, (r, id, f) =>
    treasury().listAccountTransactions(r, id, f),
  ),

  /** GET /accounts/{id}/coverage */
  coverage: apiPageById(e.coverage, { ...read, query: CoverageQuery }, (r, id, f) =>
    treasury().listAccountCoverage(r, id, f),
  ),

  /** GET /accounts/{id}/balances */
  balances: apiPageById(e.balances, { ...read, query: BalancesQuery }, (r, id, f) =>
    treasury().listAccountBalances(r, id, f),
  ),

  /** GET /accounts/{id}/intraday */
  intraday: apiPageById(e.intraday, { ...read, query: IntradayQuery }, (r, id, f) =>
    treasury().listAccountIntraday(r, id, f),
  ),

  /** GET /transactions — the selected company's transactions. */
  transactions: readByQuery(e.transactions, { ...read, query: TransactionsQuery }, listTransactions),

  /** GET /transactions/{id} */
  transaction: readById(e.transaction, read, (ctx, id) => treasury().getTransaction(ctx.read, id)),

  /** GET /transactions as a streamed CSV of the current filter (every page). */
  exportTransactions: readByQuery(e.exportTransactions, { ...read, query: ExportQuery }, exportTransactions),

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
