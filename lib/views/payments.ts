/**
 * What the browser receives for the payment screens: the batch detail (batch,
 * instructions, status timeline, approval progress), the approval queue rows
 * and the debtor account of a pain.001 export. Types only: the BFF assembles
 * them from the API's payment and approval reads plus the dashboard's audit
 * log (who created and who approved, since the API knows only its OAuth client).
 */
import type {
  ApprovalRequest,
  ApprovalState,
  PaymentBatch,
  PaymentInstruction,
  PaymentStatusEvent,
} from "@treasury/contract";
import type { RiskSeverity, RiskSignalCode } from "../payments/risk-signals";

/** Who decided, when (ISO 8601) and why (`reason` when one was given). */
export interface Decision {
  email: string;
  /** The person's display name when the dashboard knows it. */
  name?: string;
  at: string;
  reason?: string;
  /** A rejection by the batch's own creator: the batch was withdrawn before approval. */
  withdrawn?: boolean;
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
  /** The creator's display name when the dashboard knows one (else show `created_by`, the e-mail). */
  created_by_name?: string | null;
  /** `person` or `api_client` (an integration created it); null or absent when unknown. */
  created_by_kind?: "person" | "api_client" | null;
  instructions: PaymentInstruction[];
  events: PaymentStatusEvent[];
  approval: ApprovalProgress | null;
  /** The approval policy stored with the batch at submission; null when none. */
  policy: BatchPolicyView | null;
  /** The user may edit / discard it (treasurer, status `created`, and the API offers it). */
  may_edit?: boolean;
  may_discard?: boolean;
  /**
   * Per instruction id: its payee is a verified counterparty, one pending verification, or an ad-hoc creditor
   * ("not a verified counterparty").
   */
  payee_standing?: Record<string, "verified" | "pending" | "ad_hoc">;
  /** The user may submit it (treasurer, status `created`). */
  may_submit: boolean;
}

/**
 * One row of the payments list: the batch, its company, who created it (from the dashboard's audit log) and its
 * approval progress and policy as the batch page computes them (null before submission).
 */
export interface BatchListRow {
  batch: PaymentBatch;
  company_id: string;
  company_name: string;
  /** E-mail of the dashboard user who created it; null when created outside the dashboard. */
  created_by: string | null;
  created_by_name: string | null;
  /** `person` or `api_client` (an integration created it); null or absent when unknown. */
  created_by_kind?: "person" | "api_client" | null;
  approval: ApprovalProgress | null;
  policy: BatchPolicyView | null;
}

/** One row of the approval queue. */
export interface ApprovalQueueRow {
  approval: ApprovalRequest;
  batch: PaymentBatch | null;
  company_id: string | null;
  company_name: string;
  created_by: string | null;
  /** The creator's display name when the dashboard knows one (else show `created_by`, the e-mail). */
  created_by_name?: string | null;
  /** `person` or `api_client` (an integration created it); null or absent when unknown. */
  created_by_kind?: "person" | "api_client" | null;
  /** Four-eyes: the signed-in user created the batch, so may not approve it. */
  created_by_me: boolean;
  approved_by: Decision[];
  /** The signed-in user already counted once on this request. */
  approved_by_me: boolean;
  /** The first instructions, for the expanded row. */
  instructions: PaymentInstruction[];
  /** The batch's risk signals; null when they could not be computed (the row says so). */
  risk: BatchRisk | null;
  /**
   * The approval policy stored with the batch at submission; null when none is stored yet. When present,
   * `approval.required_count` and `approved_count` are the dashboard's (the policy's count, never below the API's;
   * approvals held by the dashboard included).
   */
  policy: BatchPolicyView | null;
}

/** The approval policy that applies to a batch, as shown: `Rule 3: ≥ EUR 100,000 → 2 approvers from Treasury leads`. */
export interface BatchPolicyView {
  explanation: string;
  /** Approvals the policy requires (the API may require fewer; never more is asked of the API). */
  required_count: number;
  /** Approvals recorded by the dashboard, held ones included. */
  approvals: number;
  /** Approvals kept in the dashboard, not sent to the API yet. */
  held: number;
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

/** One risk signal as the browser sees it: the rule's output plus the instruction it concerns, for display. */
export interface RiskSignalView {
  code: RiskSignalCode;
  severity: RiskSeverity;
  /** Index into the batch's instructions, or null for a batch-level signal. */
  instruction: number | null;
  /** The instruction's end-to-end id, creditor and IBAN (null for a batch-level signal). */
  end_to_end_id: string | null;
  creditor_name: string | null;
  creditor_iban: string | null;
  /** The sentence, amounts formatted in en-GB; `message_template` + `message_amounts` let a viewer format them. */
  message: string;
  message_template?: string;
  message_amounts?: { amount: string; currency: string }[];
  evidence: Record<string, unknown>;
}

/** The account a batch is paid from, with the available balance the funds check used. */
export interface RiskDebtorAccount {
  account_id: string;
  name: string;
  currency: string;
  /** Decimal string; null when the bank has reported no available balance lately. */
  available_balance: string | null;
  /** The date of that balance, `YYYY-MM-DD`. */
  available_as_of: string | null;
}

/** The risk signals of one batch, computed on the server when the batch is viewed. */
export interface BatchRisk {
  batch_id: string;
  company_id: string;
  /** ISO 8601; signals are cached for a short while per batch. */
  computed_at: string;
  signals: RiskSignalView[];
  /** Codes of the high-severity signals: approving needs an acknowledgement of each. */
  requires_acknowledgement: RiskSignalCode[];
  debtor_account: RiskDebtorAccount | null;
  /** How many earlier batches (and their instructions) the history held; it is bounded. */
  history: { batches: number; instructions: number; since: string; truncated: boolean };
}

/** One earlier payment to an IBAN (the payee's payment history). */
export interface PayeePayment {
  batch_id: string;
  /** The batch's reference (its name); null when it has none. */
  batch_reference: string | null;
  batch_status: string;
  status: string;
  date: string;
  amount: string;
  currency: string;
  creditor_name: string;
  end_to_end_id: string;
  /** A rejected payment: the bank's ISO reason code (e.g. AC04) and its text, when known. */
  reason?: string | null;
  reason_text?: string | null;
}
