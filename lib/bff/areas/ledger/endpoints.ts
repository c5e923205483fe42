/**
 * The ledger area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): accounts and their balances,
 * intraday movements, coverage and transactions; the company's transactions and their CSV export; statement uploads;
 * bank connection health. Isomorphic: the browser derives its URLs and query keys from these.
 */
import type { Transaction } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { endpoint } from "../../endpoint";

export const ledgerEndpoints = {
  accounts: endpoint("GET", "/api/treasury/accounts"),
  upsertAccount: endpoint("POST", "/api/treasury/accounts"),
  account: endpoint("GET", "/api/treasury/accounts/[id]"),
  accountTransactions: endpoint("GET", "/api/treasury/accounts/[id]/transactions"),
  coverage: endpoint("GET", "/api/treasury/accounts/[id]/coverage"),
  balances: endpoint("GET", "/api/treasury/accounts/[id]/balances"),
  intraday: endpoint("GET", "/api/treasury/accounts/[id]/intraday"),
  transactions: endpoint("GET", "/api/treasury/transactions").returns<BffPage<Transaction>>(),
  transaction: endpoint("GET", "/api/treasury/transactions/[id]"),
  exportTransactions: endpoint("GET", "/api/treasury/transactions/export"),
  uploadStatements: endpoint("POST", "/api/treasury/statements"),
  bankConnections: endpoint("GET", "/api/treasury/bank-connections"),
};
