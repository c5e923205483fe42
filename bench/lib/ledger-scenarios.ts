/**
 * Ledger scenarios of `npm run bench:api`: the floor
 * (`GET /healthz`), the authenticated trivial route, the transaction lists and
 * the account upsert.
 */
import type { BenchScenario } from "./scenario";

export const healthzScenario: BenchScenario = {
  name: "GET /healthz (floor)",
  floor: true,
  rootPath: true,
  request: () => ({ method: "GET", path: "/healthz", headers: {} }),
};

export const pingScenario: BenchScenario = {
  name: "GET /public/ping (auth + rate limit)",
  request: () => ({ method: "GET", path: "/ping", headers: {} }),
};

export const transactionsListScenario: BenchScenario = {
  name: "GET /transactions?page_size=1000",
  targetMs: 25,
  request: ({ companyId }) => ({
    method: "GET",
    path: "/transactions?page_size=1000",
    headers: { "x-company-id": companyId },
  }),
};

/** `YYYY-MM-DD` minus `days` (UTC). */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

export const accountTransactionsScenario: BenchScenario = {
  name: "GET /accounts/{id}/transactions (30 days)",
  request: ({ companyId, accountId, today }) => ({
    method: "GET",
    path: `/accounts/${accountId}/transactions?from_date=${daysBefore(today, 30)}&to_date=${today}&page_size=1000`,
    headers: { "x-company-id": companyId },
  }),
};

export const accountUpsertScenario: BenchScenario = {
  name: "POST /accounts (upsert, new Idempotency-Key)",
  request: ({ companyId, accountIban, accountBic, currency, iteration }) => ({
    method: "POST",
    path: "/accounts",
    headers: {
      "content-type": "application/json",
      "x-company-id": companyId,
      "idempotency-key": `bench-upsert-${process.pid}-${iteration}-${Date.now()}`,
    },
    body: JSON.stringify({
      company_id: companyId,
      bank_id: accountBic,
      external_ref: accountIban,
      external_ref_type: "IBAN",
      currency,
      status: "active",
    }),
  }),
};

export const ledgerScenarios: BenchScenario[] = [
  healthzScenario,
  pingScenario,
  transactionsListScenario,
  accountTransactionsScenario,
  accountUpsertScenario,
];
