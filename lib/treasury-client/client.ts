/**
 * The typed Treasury API client (spec §4, both forms behind one interface).
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
  PAGE_SIZE_DEFAULT,
  PaymentBatch,
  PaymentBatchCreate,
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
  listOf,
} from "../contract";
import { HttpCore, type CallContext, type QueryValue } from "./http";
import { FETCH_NEXT, toPage, type Page, type RawList } from "./pagination";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import { TokenManager } from "./token-manager";

export interface TreasuryClientConfig {
  /** Base address ending in `/public`, e.g. `http://127.0.0.1:4010/public`. */
  baseUrl: string;
  form: "A" | "B";
  clientId: string;
  clientSecret: string;
  /** Form A: the tenant every call is bound to (`X-Tenant-ID`). */
  tenantId?: string;
  scopes: readonly string[];
  /** Per attempt, milliseconds (default 15 000). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRetry?: (info: { method: string; url: string; attempt: number; reason: string; waitMs: number }) => void;
}

export interface PageParams {
  /** Form B page (1-indexed); ignored by Form A. */
  page?: number;
  /** Rows per page: Form B `page_size`, Form A `limit` (1..1000). */
  pageSize?: number;
}

/** The filters of each list, from the contract's list-query schemas (the page parameters are `PageParams`). */
type Filters<S extends z.ZodObject> = PageParams & z.input<S>;
export type DateRange = z.input<typeof DateRangeQuery>;
export type AccountFilters = Filters<typeof AccountListQuery>;
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

/** Write context: the Idempotency-Key is required on every write (spec §4 conventions). */
export type WriteContext = CallContext & { idempotencyKey: string };

/** The query-string values of `q` for the keys of `schema` (strings, numbers and booleans only). */
function pick(q: object | undefined, schema: z.ZodObject, extra: readonly string[] = []): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  if (!q) return out;
  for (const k of [...Object.keys(schema.shape), ...extra]) {
    const v = (q as Record<string, unknown>)[k];
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

const enc = encodeURIComponent;

/** Creates a client; keep one per process so that its token cache is shared. */
export function createTreasuryClient(config: TreasuryClientConfig) {
  const fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
  const now = config.now ?? Date.now;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const tokens = new TokenManager({
    baseUrl,
    form: config.form,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    tenantId: config.tenantId,
    scopes: config.scopes,
    timeoutMs,
    fetch: fetchImpl,
    now,
  });
  const http = new HttpCore({
    baseUrl,
    form: config.form,
    tenantId: config.tenantId,
    timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, ...config.retry },
    fetch: fetchImpl,
    sleep: config.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: config.random ?? Math.random,
    now,
    tokens,
    onRetry: config.onRetry,
  });

  /** Page-size query parameters of the configured form. */
  function pagingQuery(p: PageParams | undefined): Record<string, QueryValue> {
    if (config.form === "A") return { limit: p?.pageSize };
    return { page: p?.page, page_size: p?.pageSize };
  }

  async function list<I extends z.ZodType>(
    path: string,
    item: I,
    filters: Record<string, QueryValue>,
    paging: PageParams | undefined,
    ctx: CallContext,
  ): Promise<Page<z.output<I>>> {
    const schema = listOf(item);
    const r = await http.send({ method: "GET", path, query: { ...filters, ...pagingQuery(paging) }, schema }, ctx);
    return withNext(toPage(r.data as RawList<z.output<I>>, paging?.pageSize ?? PAGE_SIZE_DEFAULT), item, ctx);
  }

  function withNext<I extends z.ZodType>(page: Page<z.output<I>>, item: I, ctx: CallContext): Page<z.output<I>> {
    const next = page.next;
    if (next) {
      const readCtx: CallContext = { companyId: ctx.companyId, requestId: ctx.requestId, signal: ctx.signal };
      page[FETCH_NEXT] = async () => {
        const r = await http.send({ method: "GET", path: next, schema: listOf(item) }, readCtx);
        return withNext(toPage(r.data as RawList<z.output<I>>, page.pageSize), item, readCtx);
      };
    }
    return page;
  }

  async function get<S extends z.ZodType>(
    path: string,
    schema: S,
    ctx: CallContext,
    query?: Record<string, QueryValue>,
  ): Promise<z.output<S>> {
    const r = await http.send({ method: "GET", path, schema, query }, ctx);
    return r.data as z.output<S>;
  }

  async function write<S extends z.ZodType>(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    schema: S,
    ctx: WriteContext,
    body?: unknown,
    allowEmpty = false,
  ) {
    const r = await http.send({ method, path, schema, body, allowEmpty }, ctx);
    return { status: r.status, data: r.data as z.output<S> | null };
  }

  /** A write whose answer must have a body. */
  async function writeOne<S extends z.ZodType>(
    method: "POST" | "PATCH",
    path: string,
    schema: S,
    ctx: WriteContext,
    body?: unknown,
  ): Promise<z.output<S>> {
    const r = await write(method, path, schema, ctx, body);
    return r.data as z.output<S>;
  }

  return {
    form: config.form,
    /** The token manager (exposed for tests and diagnostics; never send its tokens to a browser). */
    tokens,

    // ---- Ledger (spec §4 Ledger)
    listAccounts: (ctx: CallContext, q?: AccountFilters) =>
      list("/accounts", Account, pick(q, AccountListQuery), q, ctx),
    upsertAccount: (ctx: WriteContext, body: AccountUpsert) => writeOne("POST", "/accounts", Account, ctx, body),
    getAccount: (ctx: CallContext, id: string) => get(`/accounts/${enc(id)}`, Account, ctx),
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
     * Extension `POST /statements`: ISO 20022 statement files as multipart/form-data (parts named `files`), one summary per file.
     * A 400 names the file and element; nothing is stored then. Two minutes per attempt: a 10 MB statement takes a while.
     */
    uploadStatements: async (ctx: WriteContext, files: FormData): Promise<StatementImportResult> =>
      (
        await http.send(
          { method: "POST", path: "/statements", schema: StatementImportResult, body: files, timeoutMs: 120_000 },
          ctx,
        )
      ).data as StatementImportResult,

    // ---- Payments (spec §4 Payments)
    listBatches: (ctx: CallContext, q?: BatchFilters) =>
      list("/payments/batches", PaymentBatch, pick(q, BatchListQuery), q, ctx),
    createBatch: (ctx: WriteContext, body: PaymentBatchCreate) =>
      writeOne("POST", "/payments/batches", PaymentBatch, ctx, body),
    getBatch: (ctx: CallContext, id: string) => get(`/payments/batches/${enc(id)}`, PaymentBatch, ctx),
    /** 202; the body is not described by the spec, so it may be null. */
    /** Extension: the account the batch is paid from, with full IBAN and BIC (for a pain.001). */
    getBatchDebtorAccount: (ctx: CallContext, id: string) =>
      get(`/payments/batches/${enc(id)}/debtor-account`, DebtorAccount, ctx),
    submitBatch: async (ctx: WriteContext, id: string) =>
      (await write("POST", `/payments/batches/${enc(id)}/submit`, PaymentBatch, ctx, undefined, true)).data,
    /** Extension: the instructions of one batch, in batch order. */
    listBatchInstructions: (ctx: CallContext, id: string, q?: BatchInstructionFilters) =>
      list(`/payments/batches/${enc(id)}/instructions`, PaymentInstruction, pick(q, InstructionListQuery), q, ctx),
    getInstruction: (ctx: CallContext, id: string) => get(`/payments/instructions/${enc(id)}`, PaymentInstruction, ctx),
    listStatusEvents: (ctx: CallContext, q?: StatusEventFilters) =>
      list("/payments/status-events", PaymentStatusEvent, pick(q, StatusEventListQuery), q, ctx),

    // ---- Approvals (spec §4 Approvals); no X-Company-ID = every linked company (DESIGN.md)
    listPendingApprovals: (ctx: CallContext, q?: PageParams) => list("/approvals/pending", ApprovalRequest, {}, q, ctx),
    approve: async (ctx: WriteContext, id: string, body?: z.input<typeof ApprovalDecisionBody>) =>
      (await write("POST", `/approvals/${enc(id)}/approve`, ApprovalRequest, ctx, body ?? {}, true)).data,
    reject: async (ctx: WriteContext, id: string, body?: z.input<typeof ApprovalDecisionBody>) =>
      (await write("POST", `/approvals/${enc(id)}/reject`, ApprovalRequest, ctx, body ?? {}, true)).data,

    // ---- Reconciliation (spec §4 Reconciliation)
    listMatches: (ctx: CallContext, q?: MatchFilters) =>
      list("/reconciliation/matches", ReconciliationMatch, pick(q, MatchListQuery), q, ctx),
    /** `body` (extension, like the approvals'): reviewer and reason for the API's own trail; the spec describes no body. */
    confirmMatch: async (ctx: WriteContext, id: string, body?: MatchDecision) =>
      (await write("POST", `/reconciliation/matches/${enc(id)}/confirm`, ReconciliationMatch, ctx, body, true)).data,
    rejectMatch: async (ctx: WriteContext, id: string, body?: MatchDecision) =>
      (await write("POST", `/reconciliation/matches/${enc(id)}/reject`, ReconciliationMatch, ctx, body, true)).data,

    // ---- Reporting (spec §4 Reporting)
    cashflowDaily: (ctx: CallContext, q?: ReportFilters) =>
      list("/reporting/cashflow/daily", CashflowDay, pick(q, ReportListQuery), q, ctx),
    positionsDaily: (ctx: CallContext, q?: ReportFilters) =>
      list("/reporting/positions/daily", PositionDay, pick(q, ReportListQuery), q, ctx),
    forecast: (ctx: CallContext, q?: ForecastFilters) =>
      list("/reporting/forecast", ForecastEntry, pick(q, ReportListQuery, ["days"]), q, ctx),

    // ---- Organization (spec §4 Organization)
    listCompanies: (ctx: CallContext, q?: PageParams) => list("/companies", Company, {}, q, ctx),
    upsertCompany: (ctx: WriteContext, body: CompanyUpsert) => writeOne("POST", "/companies", Company, ctx, body),
    getCompany: (ctx: CallContext, id: string) => get(`/companies/${enc(id)}`, Company, ctx),
    listKoncerner: (ctx: CallContext, q?: PageParams) => list("/koncerner", Koncern, {}, q, ctx),
    getKoncern: (ctx: CallContext, id: string) => get(`/koncerner/${enc(id)}`, Koncern, ctx),
    getKoncernBreakdown: (ctx: CallContext, id: string) =>
      get(`/koncerner/${enc(id)}/breakdown`, KoncernBreakdown, ctx),

    // ---- Webhooks (spec §4 Webhooks, scope admin:public_api)
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

export type TreasuryClient = ReturnType<typeof createTreasuryClient>;
