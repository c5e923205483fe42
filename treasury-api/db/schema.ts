/**
 * The treasury-api's database schema (drizzle, PostgreSQL dialect; the same
 * migrations run on embedded PGlite and on PostgreSQL).
 *
 * Data model (docs/architecture.md#data-model): tenant → companies → accounts →
 * transactions, balance snapshots, coverage days, intraday points. Koncerner
 * group companies. OAuth clients belong to a tenant, have allowed scopes, a
 * `write_approved` flag and (Form B) linked companies; Form A clients have a
 * list of allowed tenants. Every money column is exact `numeric`.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });
const createdAt = () => ts("created_at").notNull().defaultNow();
const money = (name: string) => numeric(name);
const updatedAt = () => ts("updated_at").notNull().defaultNow();

/*
 * Shared column builders and column sets (docs/architecture.md#data-model). A
 * set is a plain object of builders spread into a table definition; each call
 * builds fresh columns, so the tables and the generated migrations are exactly
 * what the columns written out by hand gave. The `references` callbacks are
 * lazy, so a helper may name a table declared further down.
 */
const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id);
const companyRef = () =>
  uuid("company_id")
    .notNull()
    .references(() => companies.id);
const accountRef = () =>
  uuid("account_id")
    .notNull()
    .references(() => accounts.id);
const clientRef = () =>
  uuid("client_id")
    .notNull()
    .references(() => oauthClients.id);
/** `tenant_id`, `company_id` (both not null, no foreign key): a row owned by one company. */
const companyScope = () => ({
  tenantId: uuid("tenant_id").notNull(),
  companyId: uuid("company_id").notNull(),
});
/** {@link companyScope} plus `account_id` referencing `accounts`: a row of one account. */
const accountScope = () => ({ ...companyScope(), accountId: accountRef() });

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const companies = pgTable(
  "companies",
  {
    id: uuid("id").primaryKey(),
    tenantId: tenantRef(),
    orgnr: text("orgnr").notNull(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("companies_tenant_orgnr").on(t.tenantId, t.orgnr)],
);

export const koncerner = pgTable("koncerner", {
  id: uuid("id").primaryKey(),
  tenantId: tenantRef(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const koncernMembers = pgTable(
  "koncern_members",
  {
    koncernId: uuid("koncern_id")
      .notNull()
      .references(() => koncerner.id),
    companyId: companyRef(),
  },
  (t) => [primaryKey({ columns: [t.koncernId, t.companyId] })],
);

export const oauthClients = pgTable("oauth_clients", {
  id: uuid("id").primaryKey(),
  clientId: text("client_id").notNull().unique(),
  secretHash: text("secret_hash").notNull(),
  name: text("name").notNull(),
  form: text("form", { enum: ["A", "B"] }).notNull(),
  tenantId: tenantRef(),
  allowedScopes: text("allowed_scopes").array().notNull(),
  writeApproved: boolean("write_approved").notNull().default(false),
  createdAt: createdAt(),
});

/** Form B: the companies a client may act for. */
export const oauthClientCompanies = pgTable(
  "oauth_client_companies",
  {
    clientId: clientRef(),
    companyId: companyRef(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.companyId] })],
);

/** Form A: the tenants a partner client may request tokens for. */
export const oauthClientTenants = pgTable(
  "oauth_client_tenants",
  {
    clientId: clientRef(),
    tenantId: tenantRef(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.tenantId] })],
);

/** Opaque bearer tokens, stored as SHA-256 hashes. */
export const accessTokens = pgTable(
  "access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    clientId: clientRef(),
    form: text("form", { enum: ["A", "B"] }).notNull(),
    tenantId: tenantRef(),
    scopes: text("scopes").array().notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("access_tokens_expires").on(t.expiresAt)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey(),
    tenantId: tenantRef(),
    companyId: companyRef(),
    bankId: text("bank_id").notNull(),
    externalRef: text("external_ref").notNull(),
    externalRefType: text("external_ref_type").notNull().default("IBAN"),
    name: text("name").notNull(),
    currency: text("currency").notNull(),
    bankName: text("bank_name").notNull(),
    status: text("status", { enum: ["active", "closed"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("accounts_identity").on(t.tenantId, t.bankId, t.externalRef),
    index("accounts_company").on(t.companyId, t.name, t.id),
    index("accounts_external_ref").on(t.tenantId, t.externalRef),
  ],
);

/**
 * Booked transactions. `amount` is the absolute amount, `direction` its sign.
 * `booked_date` is the bank's booking date (the business date every filter and
 * report uses); `booked_at` the booking time when the bank gives one.
 * `dedupe_key` makes statement import idempotent.
 */
export const transactions = pgTable(
  "transactions",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    amount: money("amount").notNull(),
    currency: text("currency").notNull(),
    direction: text("direction", { enum: ["credit", "debit"] }).notNull(),
    bookedDate: date("booked_date", { mode: "string" }).notNull(),
    bookedAt: ts("booked_at").notNull(),
    valueDate: date("value_date", { mode: "string" }).notNull(),
    valueAt: ts("value_at").notNull(),
    counterpartyName: text("counterparty_name").notNull().default(""),
    remittance: text("remittance").notNull().default(""),
    endToEndId: text("end_to_end_id"),
    source: text("source").notNull(),
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    /**
     * The row as the API's Transaction JSON, serialised once by the database when the row is written
     * (`transaction_json`, migration 0010, in PL/pgSQL since 0011; docs/architecture.md#list-responses): list pages concatenate it instead
     * of formatting 1,000 rows per request. Never written by the application.
     */
    json: text("json").generatedAlwaysAs(
      sql`transaction_json(id, account_id, amount, currency, direction, booked_at, value_at, counterparty_name, remittance, end_to_end_id, booked_date, value_date)`,
    ),
  },
  (t) => [
    index("transactions_company_order").on(t.companyId, t.bookedDate, t.bookedAt, t.id),
    index("transactions_tenant_order").on(t.tenantId, t.bookedDate, t.bookedAt, t.id),
    index("transactions_account_order").on(t.accountId, t.bookedDate, t.bookedAt, t.id),
    index("transactions_e2e").on(t.companyId, t.endToEndId),
    // The unmatched list (extension) reads a company's debits by value date, oldest first.
    index("transactions_company_debit_value")
      .on(t.companyId, t.valueDate, t.id)
      .where(sql`direction = 'debit'`),
    uniqueIndex("transactions_dedupe").on(t.accountId, t.dedupeKey),
  ],
);

/**
 * Daily per-account flow aggregate, kept by a statement-level trigger on
 * `transactions` (migration 0001). Serves exact list counts and the cashflow
 * report without scanning a million rows.
 */
export const accountDayFlows = pgTable(
  "account_day_flows",
  {
    accountId: uuid("account_id").notNull(),
    bookedDate: date("booked_date", { mode: "string" }).notNull(),
    direction: text("direction").notNull(),
    ...companyScope(),
    currency: text("currency").notNull(),
    txCount: integer("tx_count").notNull(),
    amountSum: money("amount_sum").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.bookedDate, t.direction] }),
    index("account_day_flows_company").on(t.companyId, t.bookedDate),
    index("account_day_flows_tenant").on(t.tenantId, t.bookedDate),
  ],
);

export const balanceSnapshots = pgTable(
  "balance_snapshots",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    balanceType: text("balance_type").notNull(),
    asOfDate: date("as_of_date", { mode: "string" }).notNull(),
    balance: money("balance").notNull(),
    currency: text("currency").notNull(),
    source: text("source").notNull().default("api"),
  },
  (t) => [
    uniqueIndex("balance_snapshots_identity").on(t.accountId, t.balanceType, t.asOfDate),
    index("balance_snapshots_company").on(t.companyId, t.balanceType, t.asOfDate),
  ],
);

export const coverageDays = pgTable(
  "coverage_days",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    date: date("date", { mode: "string" }).notNull(),
    source: text("source").notNull(),
    completeness: text("completeness").notNull(),
  },
  (t) => [uniqueIndex("coverage_days_identity").on(t.accountId, t.date)],
);

export const intradayPoints = pgTable(
  "intraday_points",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    timestamp: ts("timestamp").notNull(),
    balance: money("balance").notNull(),
    currency: text("currency").notNull(),
    balanceType: text("balance_type").notNull(),
    /**
     * Where the point came from: "api" (simulator, seed, API) or "camt.052" (replaced when a camt.053 covers its
     * day).
     */
    source: text("source").notNull().default("api"),
  },
  (t) => [index("intraday_points_account").on(t.accountId, t.timestamp, t.id)],
);

/**
 * Statement entries the bank has not booked yet: an entry without a booking
 * date or with status PDNG (camt.053 / camt.054), and every entry of a
 * camt.052 intraday report. Kept apart from `transactions` so that no booked
 * sum, count, report or balance sees them; a later booking of the same entry
 * (same AcctSvcrRef, end-to-end id, or amount + direction + date) deletes the
 * row, and a camt.053 covering the day deletes the camt.052 rows of that day.
 */
export const pendingEntries = pgTable(
  "pending_entries",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    amount: money("amount").notNull(),
    currency: text("currency").notNull(),
    direction: text("direction", { enum: ["credit", "debit"] }).notNull(),
    /** The value date, else the statement's date. */
    expectedDate: date("expected_date", { mode: "string" }).notNull(),
    accountServicerRef: text("account_servicer_ref"),
    endToEndId: text("end_to_end_id"),
    counterpartyName: text("counterparty_name").notNull().default(""),
    remittance: text("remittance").notNull().default(""),
    /** "camt.052", "camt.053" or "camt.054". */
    source: text("source").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("pending_entries_dedupe").on(t.accountId, t.dedupeKey),
    index("pending_entries_account_date").on(t.accountId, t.expectedDate),
  ],
);

// ---------------------------------------------------------------- payments

export const paymentBatches = pgTable(
  "payment_batches",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    companyId: companyRef(),
    createdByClientId: uuid("created_by_client_id").notNull(),
    /**
     * Four-eyes at API level: who created the batch (the body's `initiator`, else the client's public client_id);
     * never its approver.
     */
    initiator: text("initiator").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    totalAmount: money("total_amount").notNull(),
    instructionCount: integer("instruction_count").notNull(),
    requestedExecutionDate: date("requested_execution_date", { mode: "string" }),
    /** Extension: the batch's name / reference. */
    reference: text("reference"),
    /** Extension: the account chosen to pay from; null = the company's first active account in the currency. */
    debtorAccountId: uuid("debtor_account_id").references(() => accounts.id),
    submittedAt: ts("submitted_at"),
    /** When the simulated bank should take its next step on this batch. */
    bankNextStepAt: ts("bank_next_step_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payment_batches_company").on(t.companyId, t.createdAt, t.id),
    index("payment_batches_bank").on(t.status, t.bankNextStepAt),
  ],
);

export const paymentInstructions = pgTable(
  "payment_instructions",
  {
    id: uuid("id").primaryKey(),
    batchId: uuid("batch_id")
      .notNull()
      .references(() => paymentBatches.id),
    ...companyScope(),
    position: integer("position").notNull(),
    amount: money("amount").notNull(),
    currency: text("currency").notNull(),
    creditorName: text("creditor_name").notNull(),
    creditorIban: text("creditor_iban").notNull(),
    endToEndId: text("end_to_end_id").notNull(),
    /** Extension: the creditor's BIC. */
    creditorBic: text("creditor_bic"),
    /** Extension: `unstructured` (free text) or `creditor_reference` (ISO 11649); null = none. */
    remittanceType: text("remittance_type"),
    /** The free text or the creditor reference (electronic format). */
    remittanceText: text("remittance_text"),
    status: text("status").notNull().default("pending"),
    transactionId: uuid("transaction_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payment_instructions_batch").on(t.batchId, t.position),
    uniqueIndex("payment_instructions_e2e").on(t.batchId, t.endToEndId),
    // The reconciliation matcher looks instructions up by company and end-to-end id.
    index("payment_instructions_company_e2e").on(t.companyId, t.endToEndId),
  ],
);

export const paymentStatusEvents = pgTable(
  "payment_status_events",
  {
    id: uuid("id").primaryKey(),
    ...companyScope(),
    batchId: uuid("batch_id").notNull(),
    instructionId: uuid("instruction_id")
      .notNull()
      .references(() => paymentInstructions.id),
    status: text("status").notNull(),
    reason: text("reason"),
    /** Extension: the reason's text (the ISO 20022 code's name, and the bank's own words from a pain.002). */
    reasonText: text("reason_text"),
    occurredAt: ts("occurred_at").notNull(),
  },
  (t) => [
    index("payment_status_events_company").on(t.companyId, t.occurredAt, t.id),
    uniqueIndex("payment_status_events_once").on(t.instructionId, t.status),
  ],
);

export const approvalRequests = pgTable(
  "approval_requests",
  {
    id: uuid("id").primaryKey(),
    ...companyScope(),
    objectType: text("object_type").notNull().default("payment_batch"),
    objectId: uuid("object_id").notNull(),
    state: text("state").notNull(),
    requiredCount: integer("required_count").notNull(),
    approvedCount: integer("approved_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("approval_requests_company").on(t.companyId, t.state, t.createdAt),
    uniqueIndex("approval_requests_object").on(t.objectType, t.objectId),
  ],
);

export const approvalDecisions = pgTable(
  "approval_decisions",
  {
    id: uuid("id").primaryKey(),
    approvalRequestId: uuid("approval_request_id")
      .notNull()
      .references(() => approvalRequests.id),
    clientId: uuid("client_id").notNull(),
    approver: text("approver").notNull(),
    decision: text("decision", { enum: ["approve", "reject"] }).notNull(),
    reason: text("reason"),
    decidedAt: createdAt(),
  },
  (t) => [uniqueIndex("approval_decisions_once").on(t.approvalRequestId, t.approver)],
);

export const reconciliationMatches = pgTable(
  "reconciliation_matches",
  {
    id: uuid("id").primaryKey(),
    ...companyScope(),
    paymentInstructionId: uuid("payment_instruction_id")
      .notNull()
      .references(() => paymentInstructions.id),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => transactions.id),
    state: text("state").notNull(),
    score: integer("score").notNull(),
    scoreBreakdown: jsonb("score_breakdown").notNull(),
    createdAt: createdAt(),
    decidedAt: ts("decided_at"),
    /** Audit trail of the confirm / reject call: the OAuth client, and the optional reviewer and reason it sent. */
    decidedByClientId: uuid("decided_by_client_id"),
    reviewer: text("reviewer"),
    decisionReason: text("decision_reason"),
    /** Extension: `matcher` (proposed by the matcher) or `manual` (created confirmed by hand). */
    origin: text("origin").notNull().default("matcher"),
  },
  (t) => [
    index("reconciliation_matches_company").on(t.companyId, t.state, t.createdAt),
    uniqueIndex("reconciliation_matches_pair").on(t.paymentInstructionId, t.transactionId),
    uniqueIndex("reconciliation_matches_confirmed_tx")
      .on(t.transactionId)
      .where(sql`state = 'confirmed'`),
    uniqueIndex("reconciliation_matches_confirmed_ins")
      .on(t.paymentInstructionId)
      .where(sql`state = 'confirmed'`),
  ],
);

/**
 * Audit of the reopen extension: one row per confirmed match put back to `proposed`, with the decision it undid
 * (the match's own decision columns are cleared by the reopen) and who reopened it and why.
 */
export const reconciliationMatchReopenings = pgTable(
  "reconciliation_match_reopenings",
  {
    id: uuid("id").primaryKey(),
    matchId: uuid("match_id")
      .notNull()
      .references(() => reconciliationMatches.id),
    ...companyScope(),
    reopenedAt: createdAt(),
    clientId: uuid("client_id").notNull(),
    reviewer: text("reviewer"),
    reason: text("reason"),
    /** The confirmation undone. */
    confirmedAt: ts("confirmed_at").notNull(),
    confirmedByClientId: uuid("confirmed_by_client_id"),
    confirmedReviewer: text("confirmed_reviewer"),
    confirmedReason: text("confirmed_reason"),
  },
  (t) => [index("reconciliation_match_reopenings_match").on(t.matchId, t.reopenedAt)],
);

// ---------------------------------------------------------------- webhooks

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey(),
    clientId: clientRef(),
    tenantId: uuid("tenant_id").notNull(),
    url: text("url").notNull(),
    active: boolean("active").notNull().default(true),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_client").on(t.clientId, t.createdAt)],
);

/** The outbox: one row per event, written in the transaction of the change. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    companyId: uuid("company_id"),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    /** Set once the event was fanned out to deliveries. */
    dispatchedAt: ts("dispatched_at"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_undispatched").on(t.dispatchedAt, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lockedUntil: ts("locked_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);

export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: uuid("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    attemptedAt: createdAt(),
  },
  (t) => [index("webhook_delivery_attempts_delivery").on(t.deliveryId, t.attempt)],
);

/**
 * When an account's statements arrive (docs/bank-files.md "Missing statements"): set per account through the API;
 * an account without a row has its schedule learned from its statement coverage.
 */
export const statementSchedules = pgTable("statement_schedules", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id),
  ...companyScope(),
  /** `daily` (business days), `weekly`, `monthly` or `none` (never overdue). */
  cadence: text("cadence").notNull(),
  /** Calendar days after the statement's last day before it is due. */
  lagDays: integer("lag_days").notNull(),
  /** The hour (UTC, 0–23) of the due day by which it is expected. */
  dueHour: integer("due_hour").notNull(),
  updatedAt: updatedAt(),
});

/** One row per overdue statement noticed (account + the statement's last day): the `statement.missing` event once. */
export const statementMissingNotices = pgTable(
  "statement_missing_notices",
  {
    id: uuid("id").primaryKey(),
    ...accountScope(),
    expectedDate: date("expected_date", { mode: "string" }).notNull(),
    dueAt: ts("due_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("statement_missing_notices_once").on(t.accountId, t.expectedDate)],
);

// ---------------------------------------------------------------- platform

/** Idempotency keys (docs/architecture.md#idempotency): keyed by (OAuth client, key), 24 h retention. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    clientId: uuid("client_id").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["in_progress", "done"] }).notNull(),
    statusCode: integer("status_code"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers"),
    lockedUntil: ts("locked_until"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.key] }), index("idempotency_keys_expires").on(t.expiresAt)],
);

/** Fixed-window rate-limit counters, shared by every instance. */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    subject: text("subject").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.windowStart] })],
);

/** Key/value settings of this installation (e.g. demo seed marker). */
export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
});

// ---------------------------------------------------------------- bank channels (docs/bank-channels.md)

/**
 * One host-to-host bank relationship: a `folder` or `sftp` channel. `settings` holds the channel's non-secret
 * fields (folder: inbox_dir, outbox_dir; sftp: host, port, username, host_key_fingerprint, inbox, outbox);
 * `secret` the sealed credentials (lib/secret-box.ts), never returned.
 */
export const bankConnections = pgTable(
  "bank_connections",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    companyId: companyRef(),
    bankName: text("bank_name").notNull(),
    channel: text("channel").notNull(),
    settings: jsonb("settings").notNull(),
    secret: text("secret"),
    /** delete | archive | leave: what happens to a bank file once it is recorded. */
    afterImport: text("after_import").notNull().default("leave"),
    archiveDir: text("archive_dir"),
    pullIntervalSeconds: integer("pull_interval_seconds").notNull().default(300),
    active: boolean("active").notNull().default(true),
    nextPullAt: ts("next_pull_at"),
    /** A process working on this connection holds it until then (lease; SKIP LOCKED claims). */
    leaseUntil: ts("lease_until"),
    lastPullAt: ts("last_pull_at"),
    lastPullOkAt: ts("last_pull_ok_at"),
    lastPushOkAt: ts("last_push_ok_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("bank_connections_company").on(t.companyId, t.createdAt, t.id)],
);

/** The accounts a connection serves: one connection per account. */
export const bankConnectionAccounts = pgTable(
  "bank_connection_accounts",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => accounts.id),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => bankConnections.id),
  },
  (t) => [index("bank_connection_accounts_connection").on(t.connectionId)],
);

/** Every file received on a connection, once per content (SHA-256): imported, failed (with reason) or duplicate. */
export const bankConnectionFiles = pgTable(
  "bank_connection_files",
  {
    id: uuid("id").primaryKey(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => bankConnections.id),
    direction: text("direction").notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    status: text("status").notNull(),
    reason: text("reason"),
    result: jsonb("result"),
    batchId: uuid("batch_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bank_connection_files_once").on(t.connectionId, t.direction, t.sha256),
    index("bank_connection_files_recent").on(t.connectionId, t.createdAt),
  ],
);

/** Payment files to push: one row per approved batch, committed with the approval; `sent_at` once delivered. */
export const bankChannelOutbox = pgTable(
  "bank_channel_outbox",
  {
    batchId: uuid("batch_id")
      .primaryKey()
      .references(() => paymentBatches.id),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => bankConnections.id),
    fileName: text("file_name").notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    leaseUntil: ts("lease_until"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [index("bank_channel_outbox_due").on(t.sentAt, t.dueDate)],
);

/** Audit trail of connection changes (credentials, fingerprint, accounts): who, when, which fields — never values. */
export const bankConnectionAudit = pgTable(
  "bank_connection_audit",
  {
    id: uuid("id").primaryKey(),
    connectionId: uuid("connection_id").notNull(),
    tenantId: uuid("tenant_id").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    fields: text("fields").array().notNull(),
    occurredAt: ts("occurred_at").notNull().defaultNow(),
  },
  (t) => [index("bank_connection_audit_connection").on(t.connectionId, t.occurredAt)],
);
