/**
 * Ledger routes (docs/treasury-api.md#ledger): accounts list / upsert / detail, account
 * transactions, balances, coverage, intraday; global transactions list and
 * detail. All are company-scoped (Form B needs X-Company-ID).
 */
import { z } from "zod";
import {
  Account,
  AccountSummary,
  AccountUpsert,
  BalanceSnapshot,
  CoverageDay,
  IntradayBalancePoint,
  Transaction,
} from "@treasury/contract/ledger";
import { idParams, json } from "../../lib/openapi";
import {
  AccountListQuery,
  AccountSummaryQuery,
  AccountTransactionListQuery,
  BalanceListQuery,
  CoverageListQuery,
  IntradayListQuery,
  TransactionListQuery,
  TransactionLookupQuery,
} from "@treasury/contract/list-queries";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

export const listAccountsRoute = defineRoute({
  method: "get",
  path: "/accounts",
  tags: ["Ledger"],
  summary: "List bank accounts",
  scope: "read:ledger",
  company: "required",
  request: {
    query: z.object({ ...pagingQuery, ...AccountListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(Account, "Accounts, by name then id") },
});

export const upsertAccountRoute = defineRoute({
  method: "post",
  path: "/accounts",
  tags: ["Ledger"],
  summary: "Create or update a bank account (upsert)",
  description:
    "Identity: client environment (tenant), bank_id and external_ref (an IBAN). company_id must equal X-Company-ID. " +
    "201 when created, 200 when updated.",
  scope: "write:ledger",
  company: "required",
  request: { body: { required: true, content: { "application/json": { schema: AccountUpsert } } } },
  responses: { 200: json(Account, "Updated"), 201: json(Account, "Created") },
});

export const accountSummariesRoute = defineRoute({
  method: "get",
  path: "/accounts/summaries",
  tags: ["Ledger"],
  summary: "Accounts with their balances and coverage (extension)",
  description:
    "Extension: the accounts (as GET /accounts, by name then id, same filters), each with its balance snapshots and " +
    "coverage days of one window — from_date to to_date, default the last 8 days up to today (UTC), at most 31 days " +
    "— so that a view of many accounts makes one call rather than two per account. X-Company-ID is optional: absent " +
    "means every company the client sees.",
  scope: "read:ledger",
  company: "optional",
  request: { query: z.object({ ...pagingQuery, ...AccountSummaryQuery.shape }).strict() },
  responses: { 200: listResponse(AccountSummary, "Account summaries") },
});

export const getAccountRoute = defineRoute({
  method: "get",
  path: "/accounts/{id}",
  tags: ["Ledger"],
  summary: "Get a bank account",
  scope: "read:ledger",
  company: "required",
  request: { params: idParams },
  responses: { 200: json(Account, "The account") },
});

export const accountTransactionsRoute = defineRoute({
  method: "get",
  path: "/accounts/{id}/transactions",
  tags: ["Ledger"],
  summary: "Transactions of an account",
  description: "Newest booking first. from_date / to_date filter on the booking date.",
  scope: "read:ledger",
  company: "required",
  request: {
    params: idParams,
    query: z.object({ ...pagingQuery, ...AccountTransactionListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(Transaction, "Transactions") },
});

export const accountBalancesRoute = defineRoute({
  method: "get",
  path: "/accounts/{id}/balances",
  tags: ["Ledger"],
  summary: "Balance snapshots of an account",
  description: "Oldest first; from_date / to_date filter on as_of_date.",
  scope: "read:ledger",
  company: "required",
  request: {
    params: idParams,
    query: z.object({ ...pagingQuery, ...BalanceListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(BalanceSnapshot, "Balance snapshots") },
});

export const accountCoverageRoute = defineRoute({
  method: "get",
  path: "/accounts/{id}/coverage",
  tags: ["Ledger"],
  summary: "Statement coverage days of an account",
  scope: "read:ledger",
  company: "required",
  request: { params: idParams, query: z.object({ ...pagingQuery, ...CoverageListQuery.shape }).strict() },
  responses: { 200: listResponse(CoverageDay, "Coverage days, oldest first") },
});

export const accountIntradayRoute = defineRoute({
  method: "get",
  path: "/accounts/{id}/intraday",
  tags: ["Ledger"],
  summary: "Intraday balance points of an account",
  description: "`date` selects one UTC day; from_date / to_date a range of UTC days. Oldest first.",
  scope: "read:ledger",
  company: "required",
  request: {
    params: idParams,
    query: z.object({ ...pagingQuery, ...IntradayListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(IntradayBalancePoint, "Intraday points") },
});

export const listTransactionsRoute = defineRoute({
  method: "get",
  path: "/transactions",
  tags: ["Ledger"],
  summary: "List transactions",
  description: "Newest booking first. Form B filters account_id, direction, currency as well.",
  scope: "read:ledger",
  company: "required",
  request: {
    query: z.object({ ...pagingQuery, ...TransactionListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(Transaction, "Transactions") },
});

export const lookupTransactionsRoute = defineRoute({
  method: "get",
  path: "/transactions/lookup",
  tags: ["Ledger"],
  summary: "Transactions by id (extension)",
  description:
    "Extension: up to 100 transactions named by `ids` (comma-separated UUIDs) in one call, in the order of `ids`; " +
    "ids that do not exist or lie outside the caller's scope are left out. X-Company-ID is optional: absent means " +
    "every company the client sees (as for reconciliation matches, whose sides this loads in bulk).",
  scope: "read:ledger",
  company: "optional",
  request: { query: z.object({ ...pagingQuery, ...TransactionLookupQuery.shape }).strict() },
  responses: { 200: listResponse(Transaction, "Transactions") },
});

export const getTransactionRoute = defineRoute({
  method: "get",
  path: "/transactions/{id}",
  tags: ["Ledger"],
  summary: "Get a transaction",
  scope: "read:ledger",
  company: "required",
  request: { params: idParams },
  responses: { 200: json(Transaction, "The transaction") },
});
