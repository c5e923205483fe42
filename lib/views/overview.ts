/**
 * What the overview page shows. Types only: the BFF assembles it from one
 * read per card, and a card whose read failed is null (that card then says so).
 */
import type { PaymentStatusEvent, PositionDay } from "../contract";
import type { LatestWithChange } from "../totals";

/** A count on the overview, or null when it could not be read. */
export type Count = { value: number; href: string } | null;

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
  /** Up to 10 latest payment status events, newest first; null when unavailable. */
  events: PaymentStatusEvent[] | null;
  /** Which parts failed (for a banner), e.g. "payments". */
  unavailable: string[];
}
