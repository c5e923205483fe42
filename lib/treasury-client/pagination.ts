/**
 * One page shape for both forms (docs/treasury-api.md#list-conventions;
 * docs/architecture.md#one-service-both-forms): Form A's bare arrays and Form B's envelopes are both
 * turned into a `Page`. `iterateItems` follows `next` until it is null.
 */
import type { Envelope } from "@treasury/contract/pagination";

/**
 * Where the next page comes from; kept off the JSON shape (a symbol key). A registered symbol (`Symbol.for`): the
 * server bundles (route handlers, pages) each hold their own copy of this module but share one client
 * (lib/server/treasury.ts keeps it on `globalThis`), so a page made by one copy must be followed by another's
 * `iterateItems`; with a plain `Symbol()` it saw no next page and silently stopped after the first.
 */
export const FETCH_NEXT: unique symbol = Symbol.for("treasury.fetchNext") as typeof FETCH_NEXT;

export interface Page<T> {
  items: T[];
  /** Total matching rows (Form B); null when the API does not say (Form A). */
  count: number | null;
  /** 1-indexed page number (always 1 for Form A). */
  page: number;
  /** Rows asked for per page (Form B `page_size`, Form A `limit`). */
  pageSize: number;
  totalPages: number | null;
  /** Absolute URL of the next page, or null. */
  next: string | null;
  previous: string | null;
  [FETCH_NEXT]?: () => Promise<Page<T>>;
}

/** The parsed body of a list response: a bare array (Form A) or the Form B envelope. */
export type RawList<T> = T[] | Envelope<T>;

/** Normalizes either list shape into a `Page` (without the next-page fetcher). */
export function toPage<T>(raw: RawList<T>, requestedPageSize: number): Page<T> {
  if (Array.isArray(raw)) {
    return {
      items: raw,
      count: null,
      page: 1,
      pageSize: requestedPageSize,
      totalPages: null,
      next: null,
      previous: null,
    };
  }
  return {
    items: raw.results,
    count: raw.count,
    page: raw.page,
    pageSize: raw.page_size,
    totalPages: raw.total_pages,
    next: raw.next,
    previous: raw.previous,
  };
}

/**
 * Yields every item of `first` and of the pages after it, following `next`
 * (filters stay as the API encoded them in `next`, so sort order and filters
 * are stable across pages). Stops after `maxPages` pages as a guard.
 */
export async function* iterateItems<T>(
  first: Page<T> | Promise<Page<T>>,
  opts: { maxPages?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const maxPages = opts.maxPages ?? 1_000;
  let page: Page<T> = await first;
  for (let n = 1; ; n++) {
    yield* page.items;
    const fetchNext = page[FETCH_NEXT];
    if (!page.next || !fetchNext || n >= maxPages) return;
    page = await fetchNext();
  }
}

/** Collects every item of every page into one array (see `iterateItems`). */
export async function collectAll<T>(first: Page<T> | Promise<Page<T>>, opts: { maxPages?: number } = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterateItems(first, opts)) out.push(item);
  return out;
}
