/**
 * One page of a BFF list answer as the browser receives it. The BFF rewrites
 * the API's paging into page numbers, so no upstream URL leaves the server.
 * Types only: shared by the BFF (which builds it) and the browser.
 */
export interface BffPage<T> {
  items: T[];
  /** Total matching items, or null when the API's paging form does not count. */
  count: number | null;
  /** 1-based page number. */
  page: number;
  page_size: number;
  total_pages: number | null;
  has_next: boolean;
  has_previous: boolean;
}
