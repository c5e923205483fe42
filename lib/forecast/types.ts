/**
 * Shapes of the cash forecast (docs/forecast.md). Money is a decimal string in inputs and outputs; dates are
 * `YYYY-MM-DD`. Statistical estimates are computed in floating point on the history and rounded to cents when
 * they become flows (docs/forecast.md#money-and-estimates); known flows stay exact.
 */

/** Where a forecast flow comes from. */
export type FlowSource = "batch" | "manual" | "recurring" | "statistical" | "scenario";

/** A booked transaction of the history, signed (credit positive, debit negative). */
export interface HistoryTxn {
  date: string;
  company: string;
  currency: string;
  category: string;
  /** Signed decimal string: credit positive, debit negative. */
  amount: string;
  counterparty?: string | null;
}

/** A payment batch not yet executed: approved or pending, debited on its execution date. */
export interface KnownBatch {
  id: string;
  status: "approved" | "pending";
  execution_date: string;
  company: string;
  currency: string;
  category: string;
  /** Signed decimal string (a payment batch is negative). */
  amount: string;
  label?: string;
}

/** How often a manual line repeats. */
export type Recurrence = "once" | "weekly" | "monthly" | "quarterly";

/** A planned flow entered by finance (docs/forecast.md#manual-lines). */
export interface ManualLine {
  id: string;
  date: string;
  /** Signed decimal string: receipts positive, payments negative. */
  amount: string;
  currency: string;
  company: string;
  category: string;
  recurrence: Recurrence;
  /** Last date a recurrence may fall on (inclusive); null = until the horizon ends. */
  end_date: string | null;
  note?: string | null;
  owner?: string | null;
}

/** One dated flow of the forecast, in the currency of its series. */
export interface Flow {
  date: string;
  company: string;
  currency: string;
  category: string;
  /** Point value, signed decimal string with 2 decimals or the known flow's own scale. */
  amount: string;
  /** 10th percentile (statistical flows only; known flows have p10 = p90 = amount). */
  p10: string;
  /** 90th percentile. */
  p90: string;
  source: FlowSource;
  /** Batch id, manual line id, recurring pattern id. */
  ref?: string;
  label?: string;
}
