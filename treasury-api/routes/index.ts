/**
 * Every route of the `/public` sub-app, in registration order: one table for the whole API
 * (docs/architecture.md#project-layout). Each area's folder holds its declarations (`<area>.routes.ts`), handlers
 * (`<area>.handlers.ts`) and tests; this file wires them. Order matters: a fixed path segment ("summaries",
 * "lookup") is registered before the `{id}` route beside it, and the OpenAPI document lists paths in this order.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../lib/context";
import * as approvals from "./approvals/approvals.handlers";
import * as approvalRoutes from "./approvals/approvals.routes";
import { registerAuthRoutes } from "./auth";
import { registerBankConnectionRoutes } from "./bank-connections";
import * as ledger from "./ledger/ledger.handlers";
import * as ledgerRoutes from "./ledger/ledger.routes";
import * as organization from "./organization/organization.handlers";
import * as organizationRoutes from "./organization/organization.routes";
import * as payments from "./payments/payments.handlers";
import * as paymentRoutes from "./payments/payments.routes";
import * as reconciliation from "./reconciliation/reconciliation.handlers";
import * as reconciliationRoutes from "./reconciliation/reconciliation.routes";
import { reopenMatchHandler } from "./reconciliation/reopen.handlers";
import { reopenMatchRoute } from "./reconciliation/reopen.routes";
import * as unmatched from "./reconciliation/unmatched.handlers";
import * as unmatchedRoutes from "./reconciliation/unmatched.routes";
import * as reporting from "./reporting/reporting.handlers";
import * as reportingRoutes from "./reporting/reporting.routes";
import { registerScheduleRoutes } from "./statements/schedules";
import { importStatementFiles } from "./statements/statements.handlers";
import { importStatementsRoute } from "./statements/statements.routes";
import * as webhooks from "./webhooks/webhooks.handlers";
import * as webhookRoutes from "./webhooks/webhooks.routes";

/** Registers every route on `api` (the `/public` sub-app), each declaration with its handler. */
export function registerRoutes(api: OpenAPIHono<AppEnv>): void {
  registerAuthRoutes(api);

  api.openapi(organizationRoutes.listCompaniesRoute, organization.listCompanies);
  api.openapi(organizationRoutes.upsertCompanyRoute, organization.upsertCompany);
  api.openapi(organizationRoutes.getCompanyRoute, organization.getCompany);
  api.openapi(organizationRoutes.listKoncernerRoute, organization.listKoncerner);
  api.openapi(organizationRoutes.getKoncernRoute, organization.getKoncern);
  api.openapi(organizationRoutes.koncernBreakdownRoute, organization.koncernBreakdown);

  api.openapi(ledgerRoutes.listAccountsRoute, ledger.listAccounts);
  api.openapi(ledgerRoutes.upsertAccountRoute, ledger.upsertAccount);
  // Before /accounts/{id}, which would otherwise take "summaries" for an id (and answer 400).
  api.openapi(ledgerRoutes.accountSummariesRoute, ledger.listAccountSummaries);
  api.openapi(ledgerRoutes.getAccountRoute, ledger.getAccount);
  api.openapi(ledgerRoutes.accountTransactionsRoute, ledger.listAccountTransactions);
  api.openapi(ledgerRoutes.accountBalancesRoute, ledger.listAccountBalances);
  api.openapi(ledgerRoutes.accountCoverageRoute, ledger.listAccountCoverage);
  api.openapi(ledgerRoutes.accountIntradayRoute, ledger.listAccountIntraday);
  api.openapi(ledgerRoutes.listTransactionsRoute, ledger.listTransactions);
  // Before /transactions/{id}, which would otherwise take "lookup" for an id (and answer 400).
  api.openapi(ledgerRoutes.lookupTransactionsRoute, ledger.lookupTransactions);
  api.openapi(ledgerRoutes.getTransactionRoute, ledger.getTransaction);

  api.openapi(paymentRoutes.listBatchesRoute, payments.listBatches);
  api.openapi(paymentRoutes.createBatchRoute, payments.createBatch, payments.batchBodyHook);
  api.openapi(paymentRoutes.getBatchRoute, payments.getBatch);
  api.openapi(paymentRoutes.updateBatchRoute, payments.updateBatch, payments.batchBodyHook);
  api.openapi(paymentRoutes.discardBatchRoute, payments.discardBatch);
  api.openapi(paymentRoutes.submitBatchRoute, payments.submitBatch);
  api.openapi(paymentRoutes.getBatchDebtorAccountRoute, payments.getBatchDebtorAccount);
  api.openapi(paymentRoutes.listBatchInstructionsRoute, payments.listBatchInstructions);
  api.openapi(paymentRoutes.lookupInstructionsRoute, payments.lookupInstructions);
  api.openapi(paymentRoutes.getInstructionRoute, payments.getInstruction);
  api.openapi(paymentRoutes.listStatusEventsRoute, payments.listStatusEvents);

  api.openapi(approvalRoutes.listPendingRoute, approvals.listPending);
  api.openapi(approvalRoutes.getApprovalRoute, approvals.getApproval);
  api.openapi(approvalRoutes.approveRoute, approvals.approve);
  api.openapi(approvalRoutes.rejectRoute, approvals.reject);

  api.openapi(reportingRoutes.cashflowDailyRoute, reporting.cashflow);
  api.openapi(reportingRoutes.cashflowAliasRoute, reporting.cashflowAlias);
  api.openapi(reportingRoutes.positionsDailyRoute, reporting.positions);
  api.openapi(reportingRoutes.positionsAliasRoute, reporting.positionsAlias);
  api.openapi(reportingRoutes.forecastRoute, reporting.forecastReport);

  api.openapi(webhookRoutes.listWebhooksRoute, webhooks.listWebhooks);
  api.openapi(webhookRoutes.createWebhookRoute, webhooks.createWebhook);
  api.openapi(webhookRoutes.getWebhookRoute, webhooks.getWebhook);
  api.openapi(webhookRoutes.patchWebhookRoute, webhooks.patchWebhook);
  api.openapi(webhookRoutes.deleteWebhookRoute, webhooks.deleteWebhook);
  api.openapi(webhookRoutes.listDeliveriesRoute, webhooks.listDeliveries);
  api.openapi(webhookRoutes.testWebhookRoute, webhooks.testWebhook);

  api.openapi(reconciliationRoutes.listMatchesRoute, reconciliation.listMatches);
  api.openapi(reconciliationRoutes.getMatchRoute, reconciliation.getMatch);
  api.openapi(reconciliationRoutes.confirmMatchRoute, reconciliation.confirmMatch);
  api.openapi(reconciliationRoutes.rejectMatchRoute, reconciliation.rejectMatch);
  // Extensions: the unmatched items and the manual match; a confirmed match back to proposed within 24 h.
  api.openapi(unmatchedRoutes.listUnmatchedRoute, unmatched.listUnmatched);
  api.openapi(unmatchedRoutes.createManualMatchRoute, unmatched.createManualMatch);
  api.openapi(reopenMatchRoute, reopenMatchHandler);

  // Extensions: bank files in, the statement schedules and overdue statements, the bank connections.
  api.openapi(importStatementsRoute, importStatementFiles);
  registerScheduleRoutes(api);
  registerBankConnectionRoutes(api);
}
