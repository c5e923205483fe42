/**
 * The payments area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): payment batches (list, create,
 * edit, discard, submit, the batch page's reads, its pain.001 file), their instructions and status events, and the
 * approval queue with its decisions. Isomorphic: the browser derives its URLs and query keys from these.
 */
import type { PaymentBatch } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import type {
  ApprovalQueueRow,
  BatchListRow,
  BatchRisk,
  BatchView,
  DebtorAccountView,
  PayeePayment,
} from "@/lib/views/payments";
import { endpoint } from "../../endpoint";

export const paymentsEndpoints = {
  instruction: endpoint("GET", "/api/treasury/payments/instructions/[id]"),
  statusEvents: endpoint("GET", "/api/treasury/payments/status-events"),
  batches: endpoint("GET", "/api/treasury/payments/batches").returns<BffPage<BatchListRow>>(),
  create: endpoint("POST", "/api/treasury/payments/batches").returns<PaymentBatch>(),
  batch: endpoint("GET", "/api/treasury/payments/batches/[id]"),
  update: endpoint("PATCH", "/api/treasury/payments/batches/[id]").returns<PaymentBatch>(),
  discard: endpoint("DELETE", "/api/treasury/payments/batches/[id]").returns<null>(),
  risk: endpoint("GET", "/api/treasury/payments/batches/[id]/risk").returns<BatchRisk>(),
  instructions: endpoint("GET", "/api/treasury/payments/batches/[id]/instructions"),
  submit: endpoint("POST", "/api/treasury/payments/batches/[id]/submit").returns<PaymentBatch>(),
  payeeHistory: endpoint("GET", "/api/treasury/payments/batches/[id]/payee-history").returns<{
    iban: string;
    payments: PayeePayment[];
  }>(),
  pain001: endpoint("GET", "/api/treasury/payments/batches/[id]/pain001"),
  view: endpoint("GET", "/api/treasury/payments/batches/[id]/view").returns<BatchView>(),
  debtorAccount: endpoint("GET", "/api/treasury/payments/batches/[id]/debtor-account").returns<{
    account: DebtorAccountView | null;
    reason: string | null;
  }>(),
  approve: endpoint("POST", "/api/treasury/approvals/[id]/approve"),
  reject: endpoint("POST", "/api/treasury/approvals/[id]/reject"),
  approvalQueue: endpoint("GET", "/api/treasury/approvals/queue").returns<{ items: ApprovalQueueRow[] }>(),
  waiting: endpoint("GET", "/api/treasury/approvals/waiting").returns<{ waiting: number }>(),
  pendingApprovals: endpoint("GET", "/api/treasury/approvals/pending"),
};
