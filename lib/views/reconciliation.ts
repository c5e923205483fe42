/**
 * One row of the reconciliation review as the browser receives it: the match
 * with its instruction and transaction side by side. Types only: the BFF
 * assembles it from the API's match, instruction and transaction reads.
 */
import type { PaymentInstruction, ReconciliationMatch, Transaction } from "@treasury/contract";
import type { Decision } from "./payments";
import type { BffPage } from "./bff-page";

export interface MatchReviewRow {
  match: ReconciliationMatch;
  company_name: string;
  instruction: PaymentInstruction | null;
  transaction: Transaction | null;
  /** Decided tab: who decided through the dashboard, when and why (audit log); null when not recorded there. */
  decision: Decision | null;
  /** Decided tab: the auto-confirm rule that confirmed it (absent when a person decided). */
  auto_confirmation?: AutoConfirmationView;
  /** Proposed tab: an auto-confirm rule held for this proposal, but the API refused its confirmation. */
  auto_confirm_failure?: AutoConfirmFailureView;
}

/** A rule's confirmation the API refused (never sent again; the proposal waits for a person). */
export interface AutoConfirmFailureView {
  rule_name: string;
  /** The API's answer, as recorded. */
  error: string;
}

/** A confirmation by an auto-confirm rule, as the decided tab shows it. */
export interface AutoConfirmationView {
  rule_name: string;
  confirmed_at: string | null;
  /** Until when a person may undo it; null when it cannot be undone (past 24 h, or the API cannot reopen). */
  undo_until: string | null;
}

/** The exact proposals of a review: their ids (at most `MAX_BULK_CONFIRM`), how many in all, totals per currency. */
export interface ExactSummary {
  /** Ids of the exact proposals one "Confirm all exact matches" sends (review order, at most 100). */
  ids: string[];
  /** How many exact proposals the filters hold (may exceed `ids.length`). */
  count: number;
  /** The instruction amounts of `ids`, summed per currency (decimal strings, 2 places), currency order. */
  totals: { currency: string; total: string }[];
}

/** A page of the review as the BFF answers it: the rows, and on the "to review" tab the exact proposals. */
export type MatchReviewPage = BffPage<MatchReviewRow> & { exact?: ExactSummary };
