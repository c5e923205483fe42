/** Turns a treasury-client `Page` into the BFF's JSON page (no upstream URLs). */
import "server-only";
import type { Page } from "../../treasury-client";
import type { BffPage } from "../inputs";

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
