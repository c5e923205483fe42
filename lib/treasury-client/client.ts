/**
 * The typed Treasury API client (docs/treasury-api.md#endpoints, both forms behind one interface).
 * One method per endpoint; list methods return a `Page` whatever the form
 * (Form A: `limit`, bare arrays; Form B: `page` / `page_size`, envelopes) and
 * `iterateItems(page)` follows `next`. Every answer is parsed with the
 * contract schemas (unknown extra fields are tolerated and dropped).
 *
 * Server-only: it holds the client secret and the access tokens.
 */
import "server-only";
import { z } from "zod";
import {
  Account,
  AccountListQuery,
  AccountSummary,
  AccountSummaryQuery,
  AccountTransactionListQuery,
  AccountUpsert,
  BalanceListQuery,
  BatchListQuery,
  CoverageListQuery,
  DateRangeQuery,
  DeliveryListQuery,
  InstructionListQuery,
  IntradayListQuery,
  MatchListQuery,
  ReportListQuery,
  StatusEventListQuery,
  TransactionListQuery,
  ApprovalDecisionBody,
  ApprovalRequest,
  BalanceSnapshot,
  CashflowDay,
  Company,
  CompanyUpsert,
  CoverageDay,
  DebtorAccount,
  ForecastEntry,
  IntradayBalancePoint,
  Koncern,
  KoncernBreakdown,
  MatchDecision,
  PaymentBatch,
  PaymentBatchCreate,
  PaymentBatchUpdate,
  PaymentInstruction,
  PaymentStatusEvent,
  PositionDay,
  ReconciliationMatch,
  StatementImportResult,
  Transaction,
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookPatch,
  UnmatchedItem,
  UnmatchedListQuery,
  ManualMatchCreate,
} from "@treasury/contract";
import { BankConnection } from "@treasury/contract/bank-connections";
import type { CallContext } from "./http";
import {
  createTransport,
  enc,
  pick,
  type PageParams,
  type Transport,
  type TreasuryClientConfig,
  type WriteContext,
} from "./transport";

export type { PageParams, TreasuryClientConfig, WriteContext } from "./transport";

/** The filters of each list, from the contract's list-query schemas (the page parameters are `PageParams`). */
type Filters<S extends z.ZodObject> = PageParams & z.input<S>;
export type DateRange = z.input<typeof DateRangeQuery>;
export type AccountFilters = Filters<typeof AccountListQuery>;
export type AccountSummaryFilters = Filters<typeof AccountSummaryQuery>;
export type AccountTransactionFilters = Filters<typeof AccountTransactionListQuery>;
export type BalanceFilters = Filters<typeof BalanceListQuery>;
export type CoverageFilters = Filters<typeof CoverageListQuery>;
export type IntradayFilters = Filters<typeof IntradayListQuery>;
export type TransactionFilters = Filters<typeof TransactionListQuery>;
export type BatchFilters = Filters<typeof BatchListQuery>;
export type BatchInstructionFilters = Filters<typeof InstructionListQuery>;
export type StatusEventFilters = Filters<typeof StatusEventListQuery>;
/** The local API filters matches by `state`, plus the extension filters. */
export type MatchFilters = Filters<typeof MatchListQuery>;
export type ReportFilters = Filters<typeof ReportListQuery>;
export type ForecastFilters = ReportFilters & { days?: number };
export type DeliveryFilters = Filters<typeof DeliveryListQuery>;
export type UnmatchedFilters = Filters<typeof UnmatchedListQuery>;

/** Ledger (docs/treasury-api.md#ledger). */
function ledgerMethods({ list, get, writeOne }: Transport) {
  return {
    listAccounts: (ctx: CallContext, q?: AccountFilters) =>
      list("/accounts", Account, pick(q, AccountListQuery), q, ctx),
    upsertAccount: (ctx: WriteContext, body: AccountUpsert) => writeOne("POST", "/accounts", Account, ctx, body),
    getAccount: (ctx: CallContext, id: string) => get(`/accounts/${enc(id)}`, Account, ctx),
    /**
     * Extension `GET /accounts/summaries`: accounts with their balances and coverage of one window (≤ 31 days), one
     * call for many accounts. Without `ctx.companyId`, every company the client sees. Check the capability
     * `ledger.account_summaries` first.
     */
    listAccountSummaries: (ctx: CallContext, q?: AccountSummaryFilters) =>
      list("/accounts/summaries", AccountSummary, pick(q, AccountSummaryQuery), q, ctx),
    listAccountTransactions: (ctx: CallContext, id: string, q?: AccountTransactionFilters) =>
      list(`/accounts/${enc(id)}/transactions`, Transaction, pick(q, AccountTransactionListQuery), q, ctx),
    listAccountBalances: (ctx: CallContext, id: string, q?: BalanceFilters) =>
      list(`/accounts/${enc(id)}/balances`, BalanceSnapshot, pick(q, BalanceListQuery), q, ctx),
    listAccountCoverage: (ctx: CallContext, id: string, q?: CoverageFilters) =>
      list(`/accounts/${enc(id)}/coverage`, CoverageDay, pick(q, CoverageListQuery), q, ctx),
    listAccountIntraday: (ctx: CallContext, id: string, q?: IntradayFilters) =>
      list(`/accounts/${enc(id)}/intraday`, IntradayBalancePoint, pick(q, IntradayListQuery), q, ctx),
    listTransactions: (ctx: CallContext, q?: TransactionFilters) =>
      list("/transactions", Transaction, pick(q, TransactionListQuery), q, ctx),
    getTransaction: (ctx: CallContext, id: string) => get(`/transactions/${enc(id)}`, Transaction, ctx),
    /**
     * Extension `GET /transactions/lookup`: up to 100 transactions by id in one call, in the order of `ids`; ids
     * not found or out of scope are left out. Without `ctx.companyId`, every company the client sees. Check the
     * capability `ledger.transactions_lookup` first: not every API offers it.
     */
    lookupTransactions: async (ctx: CallContext, ids: readonly string[]) =>
      (await list("/transactions/lookup", Transaction, { ids: ids.join(",") }, { pageSize: ids.length }, ctx)).items,
  };
}

/** Statements (extension): bank statement import. */
function statementsMethods({ sendWrite }: Transport) {
  return {
    /**
     * Extension `POST /statements`: ISO 20022 statement files as multipart/form-data (parts named `files`),
     * one summary per file. A 400 names the file and element; nothing is stored then. Two minutes per attempt:
     * a 10 MB statement takes a while.
     */
    uploadStatements: async (ctx: WriteContext, files: FormData): Promise<StatementImportResult> =>
      (
        await sendWrite(
          { method: "POST", path: "/statements", schema: StatementImportResult, body: files, timeoutMs: 120_000 },
          ctx,
        )
      ).data as StatementImportResult,
  };
}

/** Payments (docs/treasury-api.md#payments). */
function paymentsMethods({ list, get, write, writeOne }: Transport) {
  return {
    listBatches: (ctx: CallContext, q?: BatchFilters) =>
      list("/payments/batches", PaymentBatch, pick(q, BatchListQuery), q, ctx),
    createBatch: (ctx: WriteContext, body: PaymentBatchCreate) =>
      writeOne("POST", "/payments/batches", PaymentBatch, ctx, body),
    getBatch: (ctx: CallContext, id: string) => get(`/payments/batches/${enc(id)}`, PaymentBatch, ctx),
    /** Extension: the account the batch is paid from, with full IBAN and BIC (for a pain.001). */
    getBatchDebtorAccount: (ctx: CallContext, id: string) =>
      get(`/payments/batches/${enc(id)}/debtor-account`, DebtorAccount, ctx),
    /** Extension: edit a batch still in status created (reference, date, debtor account, instructions). */
    updateBatch: (ctx: WriteContext, id: string, body: PaymentBatchUpdate) =>
      writeOne("PATCH", `/payments/batches/${enc(id)}`, PaymentBatch, ctx, body),
    /** Extension: discard a batch still in status created (204). */
    discardBatch: async (ctx: WriteContext, id: string) => {
      await write("DELETE", `/payments/batches/${enc(id)}`, z.unknown(), ctx, undefined, true);
    },
    /** 202; the body is not described by the spec, so it may be null. */
    submitBatch: async (ctx: WriteContext, id: string) =>
      (await write("POST", `/payments/batches/${enc(id)}/submit`, PaymentBatch, ctx, undefined, true)).data,
    /** Extension: the instructions of one batch, in batch order. */
    listBatchInstructions: (ctx: CallContext, id: string, q?: BatchInstructionFilters) =>
      list(`/payments/batches/${enc(id)}/instructions`, PaymentInstruction, pick(q, InstructionListQuery), q, ctx),
    getInstruction: (ctx: CallContext, id: string) => get(`/payments/instructions/${enc(id)}`, PaymentInstruction, ctx),
    /**
     * Extension `GET /payments/instructions`: up to 100 instructions by id in one call, in the order of `ids`; ids
     * not found or out of scope are left out. Without `ctx.companyId`, every company the client sees. Check the
     * capability `payments.instructions_lookup` first.
     */
    lookupInstructions: async (ctx: CallContext, ids: readonly string[]) =>
      (await list("/payments/instructions", PaymentInstruction, { ids: ids.join(",") }, { pageSize: ids.length }, ctx))
        .items,
    listStatusEvents: (ctx: CallContext, q?: StatusEventFilters) =>
      list("/payments/status-events", PaymentStatusEvent, pick(q, StatusEventListQuery), q, ctx),
  };
}

/** Approvals (docs/treasury-api.md#approvals); no X-Company-ID = every linked company (docs/architecture.md#one-service-both-forms). */
function approvalsMethods({ list, get, write }: Transport) {
  return {
    listPendingApprovals: (ctx: CallContext, q?: PageParams) => list("/approvals/pending", ApprovalRequest, {}, q, ctx),
    /**
     * Extension `GET /approvals/{id}`: one approval request in any state. An API without it answers 404 or 405 (a
     * TreasuryApiError); callers fall back to scanning `listPendingApprovals`.
     */
    getApproval: (ctx: CallContext, id: string) => get(`/approvals/${enc(id)}`, ApprovalRequest, ctx),
    approve: async (ctx: WriteContext, id: string, body?: z.input<typeof ApprovalDecisionBody>) =>
      (await write("POST", `/approvals/${enc(id)}/approve`, ApprovalRequest, ctx, body ?? {}, true)).data,
    reject: async (ctx: WriteContext, id: string, body?: z.input<typeof ApprovalDecisionBody>) =>
      (await write("POST", `/approvals/${enc(id)}/reject`, ApprovalRequest, ctx, body ?? {}, true)).data,
  };
}

/** Reconciliation (docs/treasury-api.md#reconciliation). */
function reconciliationMethods({ list, write }: Transport) {
  return {
    listMatches: (ctx: CallContext, q?: MatchFilters) =>
      list("/reconciliation/matches", ReconciliationMatch, pick(q, MatchListQuery), q, ctx),
    /**
     * `body` (extension, like the approvals'): reviewer and reason for the API's own trail; the spec describes no
     * body.
     */
    confirmMatch: async (ctx: WriteContext, id: string, body?: MatchDecision) =>
      (await write("POST", `/reconciliation/matches/${enc(id)}/confirm`, ReconciliationMatch, ctx, body, true)).data,
    rejectMatch: async (ctx: WriteContext, id: string, body?: MatchDecision) =>
      (await write("POST", `/reconciliation/matches/${enc(id)}/reject`, ReconciliationMatch, ctx, body, true)).data,
    /** Extension (capability `reconciliation.reopen`): a confirmed match back to `proposed` within 24 h. */
    reopenMatch: async (ctx: WriteContext, id: string, body?: MatchDecision) =>
      (await write("POST", `/reconciliation/matches/${enc(id)}/reopen`, ReconciliationMatch, ctx, body, true)).data,
  };
}

/** Reconciliation extensions of the local API: what is left unmatched, and a match made by hand. */
function unmatchedMethods({ list, writeOne }: Transport) {
  return {
    /**
     * Extension `GET /reconciliation/unmatched`: settled instructions or debit transactions (`q.kind`) without a
     * confirmed match, oldest first by default. Without `ctx.companyId`, every company the client sees. Check the
     * capability `reconciliation.unmatched` first.
     */
    listUnmatched: (ctx: CallContext, q: UnmatchedFilters) =>
      list("/reconciliation/unmatched", UnmatchedItem, pick(q, UnmatchedListQuery), q, ctx),
    /**
     * Extension `POST /reconciliation/matches`: a match created confirmed by hand (201). 404 when a side is not
     * visible, 400 naming transaction_id for a wrong counterpart, 409 when a side is already confirmed. Check the
     * capability `reconciliation.manual_match` first.
     */
    createManualMatch: (ctx: WriteContext, body: ManualMatchCreate) =>
      writeOne("POST", "/reconciliation/matches", ReconciliationMatch, ctx, body),
  };
}

/** Reporting (docs/treasury-api.md#reporting). */
function reportingMethods({ list }: Transport) {
  return {
    cashflowDaily: (ctx: CallContext, q?: ReportFilters) =>
      list("/reporting/cashflow/daily", CashflowDay, pick(q, ReportListQuery), q, ctx),
    positionsDaily: (ctx: CallContext, q?: ReportFilters) =>
      list("/reporting/positions/daily", PositionDay, pick(q, ReportListQuery), q, ctx),
    forecast: (ctx: CallContext, q?: ForecastFilters) =>
      list("/reporting/forecast", ForecastEntry, pick(q, ReportListQuery, ["days"]), q, ctx),
  };
}

/** Organization (docs/treasury-api.md#organization). */
function organizationMethods({ list, get, writeOne }: Transport) {
  return {
    listCompanies: (ctx: CallContext, q?: PageParams) => list("/companies", Company, {}, q, ctx),
    upsertCompany: (ctx: WriteContext, body: CompanyUpsert) => writeOne("POST", "/companies", Company, ctx, body),
    getCompany: (ctx: CallContext, id: string) => get(`/companies/${enc(id)}`, Company, ctx),
    listKoncerner: (ctx: CallContext, q?: PageParams) => list("/koncerner", Koncern, {}, q, ctx),
    getKoncern: (ctx: CallContext, id: string) => get(`/koncerner/${enc(id)}`, Koncern, ctx),
    getKoncernBreakdown: (ctx: CallContext, id: string) =>
      get(`/koncerner/${enc(id)}/breakdown`, KoncernBreakdown, ctx),
  };
}

/** Webhooks (docs/treasury-api.md#webhook-endpoints, scope admin:public_api). */
function webhooksMethods({ list, get, write, writeOne }: Transport) {
  return {
    listWebhooks: (ctx: CallContext, q?: PageParams) => list("/webhooks", WebhookEndpoint, {}, q, ctx),
    createWebhook: (ctx: WriteContext, body: WebhookCreate) =>
      writeOne("POST", "/webhooks", WebhookEndpointWithSecret, ctx, body),
    getWebhook: (ctx: CallContext, id: string) => get(`/webhooks/${enc(id)}`, WebhookEndpoint, ctx),
    /** 200; with `rotate_secret: true` the answer carries the new `secret`. */
    patchWebhook: (ctx: WriteContext, id: string, body: WebhookPatch) =>
      writeOne("PATCH", `/webhooks/${enc(id)}`, WebhookEndpoint.extend({ secret: z.string().optional() }), ctx, body),
    deleteWebhook: async (ctx: WriteContext, id: string) => {
      await write("DELETE", `/webhooks/${enc(id)}`, z.unknown(), ctx, undefined, true);
    },
    /** Extension: delivery log of one endpoint. */
    listWebhookDeliveries: (ctx: CallContext, id: string, q?: DeliveryFilters) =>
      list(`/webhooks/${enc(id)}/deliveries`, WebhookDelivery, pick(q, DeliveryListQuery), q, ctx),
    /** Extension: sends a signed test event now; answers with the delivery after its first attempt. */
    testWebhook: (ctx: WriteContext, id: string) => writeOne("POST", `/webhooks/${enc(id)}/test`, WebhookDelivery, ctx),
  };
}

/** Bank connections (extension, docs/bank-channels.md#operations; scope admin:public_api). */
function bankConnectionMethods({ get }: Transport) {
  return {
    /** Extension `GET /bank-connections`: the company's connections with their health, oldest first, unpaged. */
    listBankConnections: async (ctx: CallContext) =>
      (await get("/bank-connections", z.object({ data: z.array(BankConnection) }), ctx)).data,
  };
}

/** Creates a client; keep one per process so that its token cache is shared. */
export function createTreasuryClient(config: TreasuryClientConfig) {
  const t = createTransport(config);
  return {
    form: t.form,
    /** The token manager (exposed for tests and diagnostics; never send its tokens to a browser). */
    tokens: t.tokens,
    /** The upstream cache of GETs, or null without `shared` (tests, diagnostics). */
    upstreamCache: t.cache,
    ...ledgerMethods(t),
    ...statementsMethods(t),
    ...paymentsMethods(t),
    ...approvalsMethods(t),
    ...reconciliationMethods(t),
    ...unmatchedMethods(t),
    ...reportingMethods(t),
    ...organizationMethods(t),
    ...webhooksMethods(t),
    ...bankConnectionMethods(t),
  };
}

export type TreasuryClient = ReturnType<typeof createTreasuryClient>;
