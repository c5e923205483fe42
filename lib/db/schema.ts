/**
 * The dashboard's own database schema (docs/architecture.md#users-roles-and-permissions,
 * BFF rules "audit log"). Separate from the treasury-api's database: its own
 * data folder, its own migrations (`lib/db/migrations`, generated with
 * `npx drizzle-kit generate --config drizzle.dashboard.config.ts --name X`).
 *
 * - `users`: people who sign in, with a bcrypt password hash (null for
 *   SSO-only users), roles, and the companies they may see (null = all
 *   companies the Treasury API client can see); and the single sign-on
 *   account they are tied to (issuer and `sub`, set at the first successful
 *   OIDC sign-in, see lib/auth/oidc-identity.ts), one dashboard user per
 *   IdP account.
 * - `sign_in_throttle`: failed sign-ins per account name (also for names
 *   that have no user, so throttling does not reveal which accounts exist).
 * - `audit_events`: append-only; a trigger refuses UPDATE and DELETE.
 */
import { sql } from "drizzle-orm";
import { check, customType, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp } from "./timestamps";

/**
 * `timestamp with time zone`, read as an ISO 8601 string with offset (`2026-11-23T06:16:37.601+00:00`): PostgreSQL's
 * own text form (`2026-11-23 06:16:37.601+00`) is not ISO 8601, and these values reach pages, exports and cursors.
 * Microseconds are kept, so a cursor built from a read value compares exactly.
 */
const ts = customType<{ data: string; driverData: string }>({
  dataType: () => "timestamp with time zone",
  fromDriver: (value) => isoTimestamp(value),
});

/*
 * Shared column builders (docs/architecture.md#data-model): each call builds a fresh column, so a table reads the
 * same and the generated migrations are what the columns written out by hand gave.
 */
/** `id uuid primary key default gen_random_uuid()`. */
const uuidPk = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
/** A `timestamp with time zone not null default now()` column named `name`. */
const tsNow = (name: string) =>
  ts(name)
    .notNull()
    .default(sql`now()`);
/** `user_id uuid not null references users(id) on delete cascade`. */
const userRef = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

export const users = pgTable(
  "users",
  {
    id: uuidPk(),
    /** Lower-cased; the sign-in name. */
    email: text("email").notNull().unique(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    roles: jsonb("roles").$type<string[]>().notNull(),
    /** Allowed company ids; null means every company of the API client. */
    companyIds: jsonb("company_ids").$type<string[] | null>(),
    disabledAt: ts("disabled_at"),
    /**
     * Sessions carry the version they were signed in under; raising it (sign-out, disabling, a change of roles,
     * companies or password) ends every session of the user at once, though their JWTs have not expired.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: tsNow("created_at"),
    updatedAt: tsNow("updated_at"),
    /** The OIDC issuer (`iss`) of the tied single sign-on account; null until the first SSO sign-in. */
    ssoIssuer: text("sso_issuer"),
    /** The IdP's subject (`sub`) of the tied account, with `ssoIssuer`. */
    ssoSubject: text("sso_subject"),
    ssoLinkedAt: ts("sso_linked_at"),
  },
  (t) => [
    uniqueIndex("users_sso_account").on(t.ssoIssuer, t.ssoSubject),
    // All three or none: a unique index does not compare NULLs, so a half
    // binding (issuer without subject) would escape the one-user-per-account rule.
    check(
      "users_sso_all_or_none",
      sql`(${t.ssoIssuer} is null and ${t.ssoSubject} is null and ${t.ssoLinkedAt} is null) or (${t.ssoIssuer} is
        not null and ${t.ssoSubject} is not null and ${t.ssoLinkedAt} is not null)`,
    ),
  ],
);

export const signInThrottle = pgTable("sign_in_throttle", {
  account: text("account").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lockedUntil: ts("locked_until"),
  lastFailureAt: ts("last_failure_at"),
});

export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuidPk(),
    at: tsNow("at"),
    userId: uuid("user_id"),
    userEmail: text("user_email").notNull(),
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    objectId: text("object_id"),
    companyId: uuid("company_id"),
    idempotencyKey: text("idempotency_key"),
    outcome: text("outcome").notNull(),
    requestId: text("request_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("audit_events_at").on(t.at), index("audit_events_company").on(t.companyId, t.at)],
);

// FX reference rates. Its own import so that this block stays self-contained (other tables are added beside it).
import { boolean, date, numeric, primaryKey } from "drizzle-orm/pg-core";

/**
 * FX reference rates (the European Central Bank's eurofxref rates, or the
 * demo seed, see lib/fx): one row per day and currency pair,
 * `1 base = rate quote`. `rate` is `numeric` without a scale, so a rate is
 * kept exactly as published ("1.0921", "158.38"); `source` says where it came
 * from ("ECB", "demo", or the URL it was fetched from); `imported_at` is when
 * the row was last written. The key leads with the pair so that "the latest
 * EUR/NOK rate on or before a date" is one index range scan.
 */
export const fxRates = pgTable(
  "fx_rates",
  {
    rateDate: date("rate_date", { mode: "string" }).notNull(),
    base: text("base").notNull(),
    quote: text("quote").notNull(),
    rate: numeric("rate").notNull(),
    source: text("source").notNull(),
    importedAt: tsNow("imported_at"),
  },
  (t) => [
    primaryKey({ name: "fx_rates_pkey", columns: [t.base, t.quote, t.rateDate] }),
    check("fx_rates_codes", sql`${t.base} ~ '^[A-Z]{3}$' and ${t.quote} ~ '^[A-Z]{3}$' and ${t.base} <> ${t.quote}`),
    check("fx_rates_rate_positive", sql`${t.rate} > 0`),
    check("fx_rates_source_present", sql`length(${t.source}) > 0`),
  ],
);

/**
 * Per-user display preferences, one row per user who changed one: the
 * reporting currency that converted totals are shown in (null: the
 * dashboard's default, `DASHBOARD_REPORTING_CURRENCY`). See
 * lib/db/user-preferences.ts.
 */
export const userPreferences = pgTable(
  "user_preferences",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    reportingCurrency: text("reporting_currency"),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [check("user_preferences_reporting_currency", sql`${t.reportingCurrency} ~ '^[A-Z]{3}$'`)],
);

/*
 * Counterparties (payees) of a company under maker-checker, and the history of
 * every change to them. The dashboard owns this decision data; nothing of it is
 * sent to the Treasury API. Rules live in lib/counterparties: a new counterparty
 * or changed bank details wait in `pending_verification` until a second person
 * (not the maker, not the last one to change the bank details) verifies or
 * rejects; `version` is bumped by every change so that two people acting on the
 * same version cannot both succeed.
 */
export const COUNTERPARTY_STATUSES = ["pending_verification", "verified", "rejected", "disabled"] as const;
export type CounterpartyStatus = (typeof COUNTERPARTY_STATUSES)[number];

export const counterparties = pgTable(
  "counterparties",
  {
    id: uuidPk(),
    /** The Treasury API company this payee belongs to. */
    companyId: uuid("company_id").notNull(),
    name: text("name").notNull(),
    /** Electronic format: upper case, no spaces. */
    iban: text("iban").notNull(),
    bic: text("bic"),
    /** ISO 3166-1 alpha-2. */
    country: text("country").notNull(),
    /** ISO 17442 Legal Entity Identifier. */
    lei: text("lei"),
    /** National organization number, as the registry writes it. */
    orgnr: text("orgnr"),
    /** Remittance text proposed for new payments to this payee (at most 140 characters). */
    defaultRemittance: text("default_remittance"),
    status: text("status").$type<CounterpartyStatus>().notNull().default("pending_verification"),
    createdBy: uuid("created_by").notNull(),
    /** Who last changed IBAN / BIC (null until a change); may not verify that change. */
    bankDetailsChangedBy: uuid("bank_details_changed_by"),
    bankDetailsChangedAt: ts("bank_details_changed_at"),
    /** The last verification (kept when the details change again, so "ever verified" is known). */
    verifiedBy: uuid("verified_by"),
    verifiedAt: ts("verified_at"),
    createdAt: tsNow("created_at"),
    updatedAt: tsNow("updated_at"),
    version: integer("version").notNull().default(1),
  },
  (t) => [
    check("counterparties_status", sql`${t.status} in ('pending_verification', 'verified', 'rejected', 'disabled')`),
    index("counterparties_company_name").on(t.companyId, t.name),
    // One live payee per IBAN and company; rejected and disabled ones may be created again.
    uniqueIndex("counterparties_company_iban_live")
      .on(t.companyId, t.iban)
      .where(sql`${t.status} in ('pending_verification', 'verified')`),
  ],
);

export const COUNTERPARTY_EVENTS = ["created", "bank_details_changed", "verified", "rejected", "disabled"] as const;
export type CounterpartyEvent = (typeof COUNTERPARTY_EVENTS)[number];

export const counterpartyHistory = pgTable(
  "counterparty_history",
  {
    id: uuidPk(),
    counterpartyId: uuid("counterparty_id")
      .notNull()
      .references(() => counterparties.id),
    companyId: uuid("company_id").notNull(),
    event: text("event").$type<CounterpartyEvent>().notNull(),
    oldIban: text("old_iban"),
    newIban: text("new_iban"),
    oldBic: text("old_bic"),
    newBic: text("new_bic"),
    oldStatus: text("old_status").$type<CounterpartyStatus>(),
    newStatus: text("new_status").$type<CounterpartyStatus>().notNull(),
    byUserId: uuid("by_user_id").notNull(),
    byEmail: text("by_email").notNull(),
    at: tsNow("at"),
    reason: text("reason"),
    /** The counterparty's version after this change. */
    version: integer("version").notNull(),
  },
  (t) => [index("counterparty_history_counterparty").on(t.counterpartyId, t.at)],
);

/*
 * Passkeys (WebAuthn credentials) and step-up. See lib/bff/step-up.ts for the rules and lib/db/passkeys.ts for the
 * reads and writes. A user enrols any number of passkeys; approving, rejecting, verifying a counterparty and changing
 * an approval policy then need a fresh assertion (a "step-up") bound to the signed-in session and to the objects acted
 * on. Challenges are kept here, not in the browser: each is single use and expires after five minutes.
 */
import { bigint } from "drizzle-orm/pg-core";

export const passkeyCredentials = pgTable(
  "passkey_credentials",
  {
    id: uuidPk(),
    userId: userRef(),
    /** The authenticator's credential id, base64url. */
    credentialId: text("credential_id").notNull().unique(),
    /** COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** Signature counter last seen (0 for authenticators that do not count). */
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    /** Transports the browser reported (`internal`, `hybrid`, `usb`, …), passed back as hints. */
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    /** The user's label ("Work laptop"). */
    name: text("name").notNull(),
    createdAt: tsNow("created_at"),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [
    index("passkey_credentials_user").on(t.userId),
    check("passkey_credentials_name_length", sql`length(${t.name}) between 1 and 100`),
  ],
);

export const WEBAUTHN_PURPOSES = ["registration", "step_up"] as const;
export type WebAuthnPurpose = (typeof WEBAUTHN_PURPOSES)[number];

export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuidPk(),
    userId: userRef(),
    /** The session that asked for it; only that session may answer it. */
    sessionId: text("session_id").notNull(),
    purpose: text("purpose").$type<WebAuthnPurpose>().notNull(),
    /** The challenge sent to the browser, base64url. */
    challenge: text("challenge").notNull(),
    /** Step-up only: what the assertion will cover (`action`, `subjects`). */
    scope: jsonb("scope").$type<{ action: string; subjects: string[] } | null>(),
    createdAt: tsNow("created_at"),
    expiresAt: ts("expires_at").notNull(),
    /** Set when an answer was checked (whatever the result): a challenge is answered once. */
    consumedAt: ts("consumed_at"),
  },
  (t) => [
    check("webauthn_challenges_purpose", sql`${t.purpose} in ('registration', 'step_up')`),
    index("webauthn_challenges_expiry").on(t.expiresAt),
  ],
);

export const stepUpAssertions = pgTable(
  "step_up_assertions",
  {
    /** The proof the browser sends back with the decision (`X-Step-Up`). */
    id: uuidPk(),
    userId: userRef(),
    sessionId: text("session_id").notNull(),
    /** The kind of decision covered (`approval.decide`, `counterparty.verify`, `approval_policy.change`). */
    action: text("action").notNull(),
    /** The ids of the objects covered (approval requests, a counterparty, a policy). */
    subjects: jsonb("subjects").$type<string[]>().notNull(),
    credentialId: uuid("credential_id")
      .notNull()
      .references(() => passkeyCredentials.id, { onDelete: "cascade" }),
    /** The challenge it answered (consumed). */
    challengeId: uuid("challenge_id")
      .notNull()
      .unique()
      .references(() => webauthnChallenges.id, { onDelete: "cascade" }),
    verifiedAt: tsNow("verified_at"),
  },
  (t) => [index("step_up_assertions_user").on(t.userId, t.verifiedAt)],
);

/*
 * Approval policies (lib/policies): ordered rules that say how many approvals a payment batch needs and who may
 * give them, on top of the Treasury API's own `required_count`. The rule that applied is stored with the batch at
 * submission (`batch_policy`), so a later change of the rules never changes a batch already submitted; approvals the
 * dashboard holds back until the policy's count is met are kept in `pending_approvals`.
 */

/** A named group of approvers (admin-managed); a rule may name groups whose members are eligible. */
export const approverGroups = pgTable("approver_groups", {
  id: uuidPk(),
  name: text("name").notNull().unique(),
  createdAt: tsNow("created_at"),
});

export const approverGroupMembers = pgTable(
  "approver_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => approverGroups.id, { onDelete: "cascade" }),
    userId: userRef(),
  },
  (t) => [primaryKey({ name: "approver_group_members_pkey", columns: [t.groupId, t.userId] })],
);

/** Which risk signals a rule asks for: any signal at all, or at least one of the listed kinds. */
export type PolicyRiskCondition = { mode: "any" } | { mode: "kinds"; kinds: string[] };

/**
 * One rule, evaluated in `position` order (1 first); the first rule whose conditions all hold applies. Null
 * conditions match everything. Amounts: `min_amount` inclusive, `max_amount` exclusive, in `amount_currency`
 * (converted with the FX rates of the batch's creation date) or, when `amount_currency` is null, in the batch's
 * own currency.
 */
export const approvalPolicies = pgTable(
  "approval_policies",
  {
    id: uuidPk(),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    companyId: uuid("company_id"),
    currency: text("currency"),
    amountCurrency: text("amount_currency"),
    minAmount: numeric("min_amount"),
    maxAmount: numeric("max_amount"),
    risk: jsonb("risk").$type<PolicyRiskCondition | null>(),
    requiredApprovals: integer("required_approvals").notNull(),
    /** Dashboard roles whose holders are eligible (besides the approver permission every approval needs). */
    eligibleRoles: jsonb("eligible_roles").$type<string[]>().notNull().default([]),
    eligibleGroupIds: jsonb("eligible_group_ids").$type<string[]>().notNull().default([]),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [
    uniqueIndex("approval_policies_position").on(t.position),
    check("approval_policies_required", sql`${t.requiredApprovals} between 1 and 10`),
    check("approval_policies_currency", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("approval_policies_amount_currency", sql`${t.amountCurrency} ~ '^[A-Z]{3}$'`),
  ],
);

/** The policy decided for a batch at its submission: a snapshot, never recomputed. */
export const batchPolicies = pgTable("batch_policy", {
  batchId: text("batch_id").primaryKey(),
  companyId: uuid("company_id"),
  /** The rule as it was (ids, conditions, groups with their names and members at the time). */
  rule: jsonb("rule").$type<Record<string, unknown>>().notNull(),
  explanation: text("explanation").notNull(),
  /** Approvals the policy requires. */
  requiredCount: integer("required_count").notNull(),
  /** Who may approve: roles, and user ids of the named groups' members at submission. */
  eligible: jsonb("eligible")
    .$type<{ roles: string[]; groups: { id: string; name: string; userIds: string[] }[] }>()
    .notNull(),
  createdAt: tsNow("created_at"),
});

/**
 * Each approval given through the dashboard for a request the policy governs. `forward`: this approval is (or will
 * be) sent to the Treasury API; the others are held here, counted by the dashboard only. `upstream_key` and `body`
 * are what the forward sends, so a retry after a crash sends the same request under the same Idempotency-Key.
 */
export const pendingApprovals = pgTable(
  "pending_approvals",
  {
    approvalId: text("approval_id").notNull(),
    batchId: text("batch_id").notNull(),
    userId: uuid("user_id").notNull(),
    userEmail: text("user_email").notNull(),
    at: tsNow("at"),
    forward: boolean("forward").notNull().default(false),
    upstreamKey: text("upstream_key").notNull(),
    body: jsonb("body").$type<{ approver: string; reason?: string }>().notNull(),
    forwardedAt: ts("forwarded_at"),
  },
  (t) => [
    primaryKey({ name: "pending_approvals_pkey", columns: [t.approvalId, t.userId] }),
    index("pending_approvals_batch").on(t.batchId),
  ],
);

/**
 * Cashflow category rules (lib/categories/rules.ts), tried in `position` order (1 first); the first whose
 * conditions all hold names the transaction's category. Null conditions match everything; `iban` is stored in
 * electronic format; `min_amount` inclusive, `max_amount` exclusive, on the absolute amount.
 */
export const cashflowCategoryRules = pgTable(
  "cashflow_category_rules",
  {
    id: uuidPk(),
    position: integer("position").notNull(),
    category: text("category").notNull(),
    counterpartyContains: text("counterparty_contains"),
    remittanceContains: text("remittance_contains"),
    iban: text("iban"),
    direction: text("direction"),
    minAmount: numeric("min_amount"),
    maxAmount: numeric("max_amount"),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [
    uniqueIndex("cashflow_category_rules_position").on(t.position),
    check("cashflow_category_rules_direction", sql`${t.direction} in ('credit', 'debit')`),
  ],
);

/**
 * Auto-confirm rules of reconciliation (admin-set): a proposed match whose score is at least `min_score` and that
 * meets every other condition is confirmed by the dashboard on the rule's behalf. Null conditions match everything;
 * `max_amount` inclusive, on the instruction's amount; `currency` ISO 4217. Rules are tried in creation order.
 */
export const reconciliationAutoRules = pgTable(
  "reconciliation_auto_rules",
  {
    id: uuidPk(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    minScore: integer("min_score").notNull(),
    exactAmount: boolean("exact_amount").notNull().default(true),
    endToEndId: boolean("end_to_end_id").notNull().default(true),
    companyId: uuid("company_id"),
    currency: text("currency"),
    maxAmount: numeric("max_amount"),
    createdAt: tsNow("created_at"),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [
    uniqueIndex("reconciliation_auto_rules_name").on(sql`lower(${t.name})`),
    check("reconciliation_auto_rules_min_score", sql`${t.minScore} between 0 and 100`),
  ],
);

/**
 * Confirmations made by an auto-confirm rule, one per match (a match undone is never confirmed by a rule again).
 * Recorded with its Idempotency-Key before the API is called (`state` pending), so a crash between the two re-sends
 * the same request, which the API answers once; `confirmed` once the API answered (and the audit entry written in
 * the same transaction); `failed` when the API refused it; `undone` after a person reopened it.
 */
export const reconciliationAutoConfirmations = pgTable(
  "reconciliation_auto_confirmations",
  {
    matchId: uuid("match_id").primaryKey(),
    ruleId: uuid("rule_id").notNull(),
    ruleName: text("rule_name").notNull(),
    companyId: uuid("company_id"),
    upstreamKey: text("upstream_key").notNull(),
    state: text("state").notNull(),
    recordedAt: tsNow("recorded_at"),
    confirmedAt: ts("confirmed_at"),
    error: text("error"),
    undoneAt: ts("undone_at"),
    undoneBy: text("undone_by"),
  },
  (t) => [
    index("reconciliation_auto_confirmations_state").on(t.state),
    check("reconciliation_auto_confirmations_state", sql`${t.state} in ('pending', 'confirmed', 'failed', 'undone')`),
  ],
);

/**
 * Cash forecast manual lines (docs/forecast.md#manual-lines): planned flows finance enters — a loan repayment, a
 * dividend — with a signed `amount` (receipts positive) in `currency`, for one company and cashflow category,
 * repeating `once`, `weekly`, `monthly` or `quarterly` from `date` until `end_date` (inclusive; null = open).
 * `owner` is the email of the person who created it.
 */
export const forecastManualLines = pgTable(
  "forecast_manual_lines",
  {
    id: uuidPk(),
    date: date("date", { mode: "string" }).notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    companyId: text("company_id").notNull(),
    category: text("category").notNull(),
    recurrence: text("recurrence").notNull(),
    endDate: date("end_date", { mode: "string" }),
    note: text("note"),
    owner: text("owner").notNull(),
    createdAt: tsNow("created_at"),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [
    index("forecast_manual_lines_date").on(t.date),
    check("forecast_manual_lines_recurrence", sql`${t.recurrence} in ('once', 'weekly', 'monthly', 'quarterly')`),
    check("forecast_manual_lines_currency", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("forecast_manual_lines_end", sql`${t.endDate} is null or ${t.endDate} >= ${t.date}`),
  ],
);

/**
 * Cash forecast scenarios (docs/forecast.md#scenarios): a name unique within a team and the ordered adjustments
 * (lib/forecast/scenario.ts `Adjustment`, validated by lib/forecast/inputs.ts before they are stored).
 */
export const forecastScenarios = pgTable(
  "forecast_scenarios",
  {
    id: uuidPk(),
    team: text("team").notNull(),
    name: text("name").notNull(),
    adjustments: jsonb("adjustments").$type<unknown[]>().notNull(),
    owner: text("owner").notNull(),
    updatedAt: tsNow("updated_at"),
  },
  (t) => [uniqueIndex("forecast_scenarios_team_name").on(t.team, t.name)],
);

/**
 * Forecast settings per key (docs/forecast.md#settings): `recurring_off:<pattern id>` (a detected recurring payee
 * switched off) and `threshold:<company id>` (the minimum cash of a company in the reporting currency, `value`
 * a decimal string).
 */
export const forecastSettings = pgTable("forecast_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: tsNow("updated_at"),
});

/**
 * Forecast snapshots (docs/forecast.md#variance): the forecast of one company as it stood when the first forecast of
 * an ISO week (`iso_week`, `2026-W48`) was computed — `rows` holds the weekly totals per complete ISO week of the
 * horizon, currency and category (`{ week_start, currency, category, amount }`, `amount` a decimal string). One row
 * per week and company: the key makes a second computation of the same week (or two racing ones) a no-op.
 */
export const forecastSnapshots = pgTable(
  "forecast_snapshots",
  {
    isoWeek: text("iso_week").notNull(),
    companyId: text("company_id").notNull(),
    /** Last day of the history the forecast saw; the forecast starts the day after. */
    asOf: date("as_of", { mode: "string" }).notNull(),
    /** Last day of the forecast's horizon: the weeks from `as_of` + 1 to here are covered (a missing row is 0). */
    forecastTo: date("forecast_to", { mode: "string" }).notNull(),
    rows: jsonb("rows").$type<{ week_start: string; currency: string; category: string; amount: string }[]>().notNull(),
    createdAt: tsNow("created_at"),
  },
  (t) => [primaryKey({ name: "forecast_snapshots_pkey", columns: [t.isoWeek, t.companyId] })],
);

/**
 * Invitation and password-reset links (docs/users-and-notifications.md#invitations): one row per link sent. Only the
 * SHA-256 of the token is kept, so a copy of the database does not hold a usable link. A link sets the password of
 * `user_id` once (`used_at`), until `expires_at` (72 h), and only for the e-mail it was sent to; issuing a new link,
 * disabling the user or changing their e-mail revokes the open ones (`revoked_at`).
 */
export const userInvitations = pgTable(
  "user_invitations",
  {
    id: uuidPk(),
    userId: userRef(),
    /** Lower-cased; the address the link was sent to (the person must type it again). */
    email: text("email").notNull(),
    /** Hex SHA-256 of the token in the link. */
    tokenHash: text("token_hash").notNull().unique(),
    /** `invite` (a new user) or `reset` (a password reset by an admin). */
    purpose: text("purpose").$type<"invite" | "reset">().notNull(),
    createdBy: uuid("created_by"),
    createdAt: tsNow("created_at"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    index("user_invitations_user").on(t.userId),
    check("user_invitations_purpose", sql`${t.purpose} in ('invite', 'reset')`),
  ],
);

/**
 * Notifications (docs/users-and-notifications.md#notifications): the in-app centre's rows, one per person told, and
 * the e-mail outbox. A notification and its outbox row are written in one transaction with `dedupe_key` unique per
 * user, so a retried event tells nobody twice.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuidPk(),
    userId: userRef(),
    /** `approval.waiting`, `batch.approved`, `batch.rejected`, `payment.bank_rejected`, `bank.alert`. */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** A path inside the dashboard (`/payments/<id>`), or null. */
    link: text("link"),
    /** The event this tells of (`approval.waiting:<batch id>`): one notification per user and event. */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: tsNow("created_at"),
    readAt: ts("read_at"),
  },
  (t) => [
    uniqueIndex("notifications_user_dedupe").on(t.userId, t.dedupeKey),
    index("notifications_user_created").on(t.userId, t.createdAt),
  ],
);

/** E-mail switched off per user and kind (a row = off; no row = on). */
export const notificationEmailOptOuts = pgTable(
  "notification_email_opt_outs",
  {
    userId: userRef(),
    kind: text("kind").notNull(),
  },
  (t) => [primaryKey({ name: "notification_email_opt_outs_pkey", columns: [t.userId, t.kind] })],
);

/**
 * The e-mail outbox: a row is committed with the event it tells of and sent by the outbox worker
 * (lib/notify/outbox.ts). `message_id` is derived from the row id, so every attempt of one row carries the same
 * Message-ID. States: `pending` → `sending` (claimed, committed before the SMTP exchange) → `sent`, or `failed` after
 * the last attempt; a `sending` row whose claim expired (the sender died) is attempted again.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuidPk(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    /** Plain text; cleared once sent (an invitation's body holds its link). */
    body: text("body").notNull(),
    messageId: text("message_id").notNull().unique(),
    kind: text("kind").notNull(),
    /** The event and recipient (`approval.waiting:<batch>:<user>`): one e-mail per event and person. */
    dedupeKey: text("dedupe_key").notNull().unique(),
    state: text("state").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    claimedUntil: ts("claimed_until"),
    lastError: text("last_error"),
    createdAt: tsNow("created_at"),
    sentAt: ts("sent_at"),
  },
  (t) => [
    index("email_outbox_state").on(t.state, t.createdAt),
    check("email_outbox_state_known", sql`${t.state} in ('pending', 'sending', 'sent', 'failed')`),
  ],
);

/**
 * Webhook events of the Treasury API the dashboard received (docs/users-and-notifications.md#webhooks-from-the-treasury-api):
 * one row per event id, written in the transaction that tells people of it, so a redelivered event (also two
 * deliveries at once: the second waits on the primary key, then finds it) tells nobody twice.
 */
export const treasuryWebhookEvents = pgTable("treasury_webhook_events", {
  /** The API's event id (`X-Service-Event-Id`, the body's `id`). */
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** How many people were told (0 for an event that concerns nobody). */
  told: integer("told").notNull().default(0),
  receivedAt: tsNow("received_at"),
});
