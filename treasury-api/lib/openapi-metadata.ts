/**
 * Metadata of the served OpenAPI document that integrators' tools read (docs/treasury-api.md, "OpenAPI document"):
 * a stable camelCase `operationId` per operation (generated SDKs name their methods after it), the declared tags,
 * the security schemes — OAuth 2.0 client credentials for Form B (token URL `/auth/token/`, every scope described),
 * Form A's tenant token beside it, HTTP Basic on the token endpoints — and `info.license` / `contact`.
 *
 * Additive only: `withOpenApiMetadata` adds these to the document the routes generate and changes no path,
 * parameter, schema or behaviour. An operation missing from `OPERATION_IDS` keeps no id and fails the test that
 * checks every operation has one (treasury-api/test/openapi-lint.test.ts).
 */
import { SCOPES, type Scope } from "@treasury/contract/auth";

/** `METHOD path` → operationId. Stable: an integrator's generated client calls these names. */
export const OPERATION_IDS: Record<string, string> = {
  "POST /auth/token/": "createToken",
  "POST /auth/tenant-token": "createTenantToken",
  "GET /companies": "listCompanies",
  "POST /companies": "upsertCompany",
  "GET /companies/{id}": "getCompany",
  "GET /koncerner": "listKoncerner",
  "GET /koncerner/{id}": "getKoncern",
  "GET /koncerner/{id}/breakdown": "getKoncernBreakdown",
  "GET /accounts": "listAccounts",
  "POST /accounts": "upsertAccount",
  "GET /accounts/summaries": "listAccountSummaries",
  "GET /accounts/{id}": "getAccount",
  "GET /accounts/{id}/transactions": "listAccountTransactions",
  "GET /accounts/{id}/balances": "listAccountBalances",
  "GET /accounts/{id}/coverage": "listAccountCoverage",
  "GET /accounts/{id}/intraday": "listAccountIntraday",
  "GET /transactions": "listTransactions",
  "GET /transactions/lookup": "lookupTransactions",
  "GET /transactions/{id}": "getTransaction",
  "GET /payments/batches": "listPaymentBatches",
  "POST /payments/batches": "createPaymentBatch",
  "GET /payments/batches/{id}": "getPaymentBatch",
  "PATCH /payments/batches/{id}": "updatePaymentBatch",
  "DELETE /payments/batches/{id}": "deletePaymentBatch",
  "POST /payments/batches/{id}/submit": "submitPaymentBatch",
  "GET /payments/batches/{id}/debtor-account": "getPaymentBatchDebtorAccount",
  "GET /payments/batches/{id}/instructions": "listPaymentBatchInstructions",
  "GET /payments/instructions": "lookupPaymentInstructions",
  "GET /payments/instructions/{id}": "getPaymentInstruction",
  "GET /payments/status-events": "listPaymentStatusEvents",
  "GET /approvals/pending": "listPendingApprovals",
  "GET /approvals/{id}": "getApproval",
  "POST /approvals/{id}/approve": "approveApproval",
  "POST /approvals/{id}/reject": "rejectApproval",
  "GET /reporting/cashflow/daily": "getDailyCashflow",
  "GET /reporting/cashflow": "getCashflow",
  "GET /reporting/positions/daily": "getDailyPositions",
  "GET /reporting/positions": "getPositions",
  "GET /reporting/forecast": "getForecast",
  "GET /webhooks": "listWebhooks",
  "POST /webhooks": "createWebhook",
  "GET /webhooks/{id}": "getWebhook",
  "PATCH /webhooks/{id}": "updateWebhook",
  "DELETE /webhooks/{id}": "deleteWebhook",
  "GET /webhooks/{id}/deliveries": "listWebhookDeliveries",
  "POST /webhooks/{id}/test": "testWebhook",
  "GET /bank-connections": "listBankConnections",
  "POST /bank-connections": "createBankConnection",
  "GET /bank-connections/{id}": "getBankConnection",
  "PATCH /bank-connections/{id}": "updateBankConnection",
  "DELETE /bank-connections/{id}": "deleteBankConnection",
  "POST /bank-connections/{id}/pull": "pullBankConnection",
  "GET /bank-connections/{id}/files": "listBankConnectionFiles",
  "GET /reconciliation/matches": "listReconciliationMatches",
  "POST /reconciliation/matches": "createReconciliationMatch",
  "GET /reconciliation/matches/{id}": "getReconciliationMatch",
  "POST /reconciliation/matches/{id}/confirm": "confirmReconciliationMatch",
  "POST /reconciliation/matches/{id}/reject": "rejectReconciliationMatch",
  "POST /reconciliation/matches/{id}/reopen": "reopenReconciliationMatch",
  "GET /reconciliation/unmatched": "listUnmatched",
  "POST /statements": "importStatements",
  "GET /statements/missing": "listMissingStatements",
  "PUT /statements/schedules/{id}": "setStatementSchedule",
};

/** What each scope allows (the OAuth 2.0 scheme lists them all). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "read:ledger": "Read companies, koncerner, accounts, balances and transactions",
  "write:ledger": "Create and update companies and accounts; import bank statements",
  "read:reporting": "Read cashflow and cash-position reports",
  "read:forecast": "Read the cash forecast",
  "read:payments": "Read payment batches, instructions, status events and approval requests",
  "write:payments": "Create, edit, discard and submit payment batches",
  "approve:payments": "Approve or reject payment batches (four-eyes)",
  "read:reconciliation": "Read reconciliation matches and unmatched items",
  "write:reconciliation": "Confirm, reject, create and reopen reconciliation matches",
  "admin:public_api": "Manage webhook endpoints",
};

/** The declared tags, in the order tools show them. */
export const TAGS: { name: string; description: string }[] = [
  { name: "Auth", description: "Access tokens: Form B client credentials, Form A tenant tokens" },
  { name: "Organization", description: "Companies and koncerner (corporate groups)" },
  { name: "Ledger", description: "Bank accounts, balances and transactions" },
  { name: "Payments", description: "Payment batches, their instructions and status events" },
  { name: "Approvals", description: "Approval requests of payment batches" },
  { name: "Reporting", description: "Cashflow, cash positions and forecast" },
  { name: "Webhooks", description: "Webhook endpoints and their deliveries" },
  { name: "Bank connections", description: "Extension: host-to-host bank channels (folder, SFTP) and their files" },
  { name: "Reconciliation", description: "Matches of payment instructions and bank transactions" },
  {
    name: "Statements (extension)",
    description:
      "Upload of bank files: ISO 20022 camt statements, MT940 / MT942, BAI2 and pain.002 status reports (extension)",
  },
];

/** The security schemes: Form B (OAuth 2.0 client credentials), Form A (tenant token), HTTP Basic (token requests). */
export const SECURITY_SCHEMES = {
  oauth2: {
    type: "oauth2",
    description:
      "Form B: an access token from POST /auth/token/ (client credentials, HTTP Basic or client_id/client_secret " +
      "fields), sent as `Authorization: Bearer <token>`. The token carries the scopes asked for (every allowed " +
      "scope when none is asked for).",
    flows: {
      clientCredentials: {
        tokenUrl: "/auth/token/",
        scopes: SCOPE_DESCRIPTIONS,
      },
    },
  },
  tenantToken: {
    type: "http",
    scheme: "bearer",
    description:
      "Form A: a partner client's access token from POST /auth/tenant-token, bound to one tenant, sent as " +
      "`Authorization: Bearer <token>` with the same scopes as Form B (each operation names the scope it needs).",
  },
  clientBasic: {
    type: "http",
    scheme: "basic",
    description:
      "Client credentials (client_id:client_secret) on the token endpoints; they may be sent as form or " +
      "JSON fields instead.",
  },
} as const;

/** Who answers integrators' questions, and the terms of use (placeholders of this local implementation). */
export const CONTACT = { name: "Treasury API team", email: "treasury-api@example.com" };
export const LICENSE = { name: "Proprietary", url: "https://example.com/treasury-api/terms" };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

type Doc = {
  info: Record<string, unknown>;
  paths?: Record<string, Record<string, unknown>>;
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
  tags?: unknown;
} & Record<string, unknown>;

/**
 * The document with the metadata of the module doc added: operationIds, declared tags, security schemes (an
 * operation's `bearerAuth` requirement becomes the OAuth 2.0 scheme with the same scope, or Form A's tenant token),
 * HTTP Basic on the token endpoints, license and contact. The input is not changed.
 */
export function withOpenApiMetadata<D extends object>(input: D): D {
  const doc = input as unknown as Doc;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    const out: Record<string, unknown> = { ...item };
    for (const m of METHODS) {
      const op = item[m] as Record<string, unknown> | undefined;
      if (!op) continue;
      const id = OPERATION_IDS[`${m.toUpperCase()} ${p}`];
      const security = Array.isArray(op.security)
        ? (op.security as Record<string, string[]>[]).flatMap((req) =>
            "bearerAuth" in req ? [{ oauth2: req.bearerAuth ?? [] }, { tenantToken: [] }] : [req],
          )
        : p.startsWith("/auth/")
          ? [{ clientBasic: [] }, {}]
          : undefined;
      out[m] = { ...(id ? { operationId: id } : {}), ...op, ...(security ? { security } : {}) };
    }
    paths[p] = out;
  }
  const schemes = { ...(doc.components?.securitySchemes ?? {}) };
  delete schemes.bearerAuth;
  return {
    ...doc,
    info: {
      ...doc.info,
      contact: CONTACT,
      license: LICENSE,
    },
    tags: TAGS,
    paths,
    components: { ...doc.components, securitySchemes: { ...schemes, ...SECURITY_SCHEMES } },
  } as unknown as D;
}

/** Every scope has a description (checked here so that a new scope cannot be added without one). */
export const SCOPES_DESCRIBED: boolean = SCOPES.every((s) => SCOPE_DESCRIPTIONS[s] !== undefined);
