/**
 * The transactions text search. The spec's `/transactions` has
 * no text filter (docs/treasury-api.md#ledger: from_date, to_date, limit; Form B adds
 * account_id, direction, currency), so the search runs in the browser — but
 * over every transaction of the filtered range, not only the rows scrolled
 * into view: while a search text is set, the list loads the remaining pages
 * (1,000 rows each) one after another and says how far it is. It stops at
 * `SEARCH_ROW_LIMIT` rows (the size the virtualized list is built for) and
 * then says that only part of the range was searched. The CSV export applies
 * the same text filter on the server over every page.
 */

/** Most rows the browser loads for a search (100 pages of 1,000). */
export const SEARCH_ROW_LIMIT = 100_000;

/**
 * How far the list is: `browse` no search; `loading` a search still reading pages; `complete` searched every row;
 * `capped` stopped at the limit; `failed` a page could not be read.
 */
export type SearchPhase = "browse" | "loading" | "complete" | "capped" | "failed";

export interface SearchState {
  /** The search text (null or empty: no search). */
  q: string | null;
  /** Rows loaded so far. */
  loaded: number;
  /** Rows in the filtered range (Form B `count`), null when the API does not say (Form A). */
  total: number | null;
  hasNext: boolean;
  /** Reading the next page failed (the auto-loading stops until a retry). */
  failed: boolean;
}

/** The phase of the list for `s`. */
export function searchPhase(s: SearchState): SearchPhase {
  if (!s.q) return "browse";
  if (!s.hasNext) return "complete";
  if (s.failed) return "failed";
  return s.loaded >= SEARCH_ROW_LIMIT ? "capped" : "loading";
}

/** True when the next page should be read now for the search (not while one is already being read). */
export function shouldLoadForSearch(s: SearchState, fetching: boolean): boolean {
  return !fetching && searchPhase(s) === "loading";
}

const fmt = (n: number) => n.toLocaleString("en");

/**
 * The count line above the list, e.g. "12 matching “rent” among all 4,210
 * transactions of the range", or while loading "Searching every transaction
 * of the range: 3,000 of 4,210 read · 9 matching “rent” so far".
 * @param shown rows shown (matches when searching)
 */
export function searchSummary(s: SearchState, shown: number): string {
  const of = s.total !== null ? ` of ${fmt(s.total)}` : "";
  const match = `${fmt(shown)} matching “${s.q ?? ""}”`;
  switch (searchPhase(s)) {
    case "browse":
      return `${fmt(shown)} shown · ${fmt(s.loaded)} loaded${of}${
        !s.hasNext ? "" : s.failed ? " · loading more " + "failed" : " · scroll to load more"
      }`;
    case "loading":
      return `Searching every transaction of the range: ${fmt(s.loaded)}${of} read · ${match} so far`;
    case "complete":
      // Form A answers one list of at most `limit` rows and no count, so "all" cannot be claimed there.
      return s.total === null
        ? `${match} among the ${fmt(s.loaded)} transactions the API returned for the range`
        : `${match} among all ${fmt(s.loaded)} transactions of the range`;
    case "capped":
      return (
        `${match} among the first ${fmt(s.loaded)}${of} transactions of the range. Narrow the date range or ` +
        `add a filter to search the rest.`
      );
    case "failed":
      return `${match} among the ${fmt(s.loaded)}${of} transactions read so far; reading the rest failed.`;
  }
}
