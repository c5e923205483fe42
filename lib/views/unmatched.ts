/**
 * The unmatched view of reconciliation as the browser receives it: settled
 * payment instructions and debit transactions without a confirmed match,
 * each with its age in days, and the counterparts offered for a manual match.
 * Types and plain constants only (importable by the browser).
 */
import type { UnmatchedItem, UnmatchedKind } from "@treasury/contract/unmatched";
import type { BffPage } from "./bff-page";

/** Age buckets in days since the settlement / value date, inclusive bounds (`max` null: no upper bound). */
export const AGE_BUCKETS = [
  { key: "0-2", label: "0–2 days", min: 0, max: 2 },
  { key: "3-7", label: "3–7 days", min: 3, max: 7 },
  { key: "8-30", label: "8–30 days", min: 8, max: 30 },
  { key: "31+", label: "Over 30 days", min: 31, max: null },
] as const;
export type AgeBucketKey = (typeof AGE_BUCKETS)[number]["key"];
export const AGE_BUCKET_KEYS = AGE_BUCKETS.map((b) => b.key) as [AgeBucketKey, ...AgeBucketKey[]];

/** The bucket of an age in days (a negative age, a date in the future, counts as 0). */
export function ageBucketOf(days: number): (typeof AGE_BUCKETS)[number] {
  const d = Math.max(0, days);
  return AGE_BUCKETS.find((b) => d >= b.min && (b.max === null || d <= b.max)) ?? AGE_BUCKETS[3];
}

/** Sort orders of the view: by age (oldest first is the default) or by amount. */
export const UNMATCHED_VIEW_SORTS = ["oldest", "newest", "amount_desc", "amount_asc"] as const;
export type UnmatchedViewSort = (typeof UNMATCHED_VIEW_SORTS)[number];

/** One unmatched item with its company's name and its age (whole days since `date`, in the company's today). */
export interface UnmatchedRow extends UnmatchedItem {
  company_name: string;
  age_days: number;
  age_bucket: AgeBucketKey;
}

/** A page of the view and what the API behind it allows. */
export interface UnmatchedPage extends BffPage<UnmatchedRow> {
  kind: UnmatchedKind;
  /**
   * `extension`: the API's unmatched list (every item, exact counts). `fallback`: spec reads of one company's
   * last `window_days` days (the API has no unmatched list).
   */
  source: "extension" | "fallback";
  window_days: number | null;
  /** The API can create a match by hand; when false, `manual_match_reason` says why the action is absent. */
  manual_match: boolean;
  manual_match_reason: string | null;
}

/** A counterpart offered for a manual match, with how far it is from the item it would be matched with. */
export interface MatchCandidate extends UnmatchedRow {
  /** Counterpart amount minus the item's amount (decimal string). */
  amount_difference: string;
  /** Whole days between the two dates (absolute). */
  days_apart: number;
}
