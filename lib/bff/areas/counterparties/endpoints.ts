/**
 * The counterparties area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the selected company's
 * payees, their changes under maker-checker, their history and the CSV import. Isomorphic: the browser derives its
 * URLs and query keys from these.
 */
import type { CounterpartyDetailView, CounterpartyImportView, CounterpartyView } from "@/lib/views/counterparties";
import { endpoint } from "../../endpoint";

export const counterpartiesEndpoints = {
  list: endpoint("GET", "/api/counterparties").returns<{ items: CounterpartyView[] }>(),
  create: endpoint("POST", "/api/counterparties").returns<CounterpartyView>(),
  get: endpoint("GET", "/api/counterparties/[id]").returns<CounterpartyDetailView>(),
  history: endpoint("GET", "/api/counterparties/[id]/history"),
  bankDetails: endpoint("POST", "/api/counterparties/[id]/bank-details").returns<CounterpartyView>(),
  disable: endpoint("POST", "/api/counterparties/[id]/disable").returns<CounterpartyView>(),
  verify: endpoint("POST", "/api/counterparties/[id]/verify").returns<CounterpartyView>(),
  reject: endpoint("POST", "/api/counterparties/[id]/reject").returns<CounterpartyView>(),
  import: endpoint("POST", "/api/counterparties/import").returns<CounterpartyImportView>(),
};
