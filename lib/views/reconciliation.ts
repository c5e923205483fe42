/**
 * One row of the reconciliation review as the browser receives it: the match
 * with its instruction and transaction side by side. Types only: the BFF
 * assembles it from the API's match, instruction and transaction reads.
 */
import type { PaymentInstruction, ReconciliationMatch, Transaction } from "../contract";
import type { Decision } from "./payments";

export interface MatchReviewRow {
  match: ReconciliationMatch;
  company_name: string;
  instruction: PaymentInstruction | null;
  transaction: Transaction | null;
  /** Decided tab: who decided through the dashboard, when and why (audit log); null when not recorded there. */
  decision: Decision | null;
}
