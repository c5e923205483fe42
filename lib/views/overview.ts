/**
 * What the overview page shows. Types only: the BFF assembles it from one
 * read per card, and a card whose read failed is null (that card then says so).
 */
import type { PaymentStatusEvent, PositionDay } from "@treasury/contract";
import type { LatestWithChange } from "../totals";

/** A count on the overview, or null when it could not be read. */
export type Count = { value: number; href: string } | null;

/**
 * A payment status event with what it is about: the instruction's payee and amount, its batch (reference when the
 * batch carries one, else null: show the short id) and company. Any of these is null when it could not be read.
 */
export interface OverviewEvent extends Omit<PaymentStatusEvent, "batch_id"> {
  payee: string | null;
  amount: string | null;
  currency: string | null;
  batch_id: string | null;
  batch_reference: string | null;
  company_name: string | null;
}

export interface OverviewView {
  today: string;
  /** Latest closing position per currency with the change against the day before. */
  positions: LatestWithChange[];
  /** Daily positions of the last 30 days (chart). */
  history: PositionDay[];
  counts: {
    approvals: Count | "not_allowed";
    proposedMatches: Count;
    processingBatches: Count;
    accountsMissingCoverage: Count;
  };
  /** Up to 10 latest payment status events, newest first, each with what it is about; null when unavailable. */
  events: OverviewEvent[] | null;
  /** Which parts failed (for a banner), e.g. "payments". */
  unavailable: string[];
}
