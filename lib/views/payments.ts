/**
 * What the browser receives for the payment screens: the batch detail (batch,
 * instructions, status timeline, approval progress), the approval queue rows
 * and the debtor account of a pain.001 export. Types only: the BFF assembles
 * them from the API's payment and approval reads plus the dashboard's audit
 * log (who created and who approved, since the API knows only its OAuth client).
 */
import type { ApprovalRequest, ApprovalState, PaymentBatch, PaymentInstruction, PaymentStatusEvent } from "../contract";

/** Who decided, when (ISO 8601) and why (`reason` when one was given). */
export interface Decision {
  email: string;
  at: string;
  reason?: string;
}

/** Where a batch stands with its approvers (k of n, and who). */
export interface ApprovalProgress {
  approval_id: string | null;
  /** null once the request has left the pending queue (then only the audit log tells). */
  state: ApprovalState | null;
  required_count: number | null;
  approved_count: number;
  approved_by: Decision[];
  rejected_by: Decision | null;
}

/** Everything the batch detail page shows. */
export interface BatchView {
  batch: PaymentBatch;
  company_name: string;
  /** E-mail of the dashboard user who created it; null when created outside the dashboard. */
  created_by: string | null;
  instructions: PaymentInstruction[];
  events: PaymentStatusEvent[];
  approval: ApprovalProgress | null;
  /** The user may submit it (treasurer, status `created`). */
  may_submit: boolean;
}

/** One row of the approval queue. */
export interface ApprovalQueueRow {
  approval: ApprovalRequest;
  batch: PaymentBatch | null;
  company_id: string | null;
  company_name: string;
  created_by: string | null;
  /** Four-eyes: the signed-in user created the batch, so may not approve it. */
  created_by_me: boolean;
  approved_by: Decision[];
  /** The signed-in user already counted once on this request. */
  approved_by_me: boolean;
  /** The first instructions, for the expanded row. */
  instructions: PaymentInstruction[];
}

/** The account a batch is paid from, as the browser sees it (IBAN masked like the accounts list). */
export interface DebtorAccountView {
  account_id: string;
  name: string;
  iban_masked: string;
  bank_name: string;
  bic: string | null;
  currency: string;
}
