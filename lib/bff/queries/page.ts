/**
 * BFF list answers: a treasury-client `Page` becomes the BFF's JSON page (no
 * upstream URLs), and a parsed list query becomes the client's filters.
 */
import "server-only";
import type { Page, PageParams } from "../../treasury-client";
import { pageParams, type BffPage } from "../inputs";

/** One upstream page as the BFF answers it; with `filter`, rows are narrowed and the totals become unknown (null). */
export function toBffPage<T>(p: Page<T>, filter?: (item: T) => boolean): BffPage<T> {
  const items = filter ? p.items.filter(filter) : p.items;
  return {
    items,
    count: filter ? null : p.count,
    page: p.page,
    page_size: p.pageSize,
    total_pages: filter ? null : p.totalPages,
    has_next: p.next !== null,
    has_previous: p.previous !== null,
  };
}

/**
 * A list query parsed by its BFF schema, as the client's filters: the filter
 * keys as they are (the client sends only those its endpoint names) and the
 * paging as `page` / `pageSize` (`page_size`, else `limit`).
 */
export function clientFilters<Q extends { page?: number; page_size?: number; limit?: number }>(q: Q): Q & PageParams {
  return { ...q, ...pageParams(q) };
}
