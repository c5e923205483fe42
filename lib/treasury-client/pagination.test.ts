import { describe, expect, it, vi } from "vitest";

type Pagination = typeof import("./pagination");

/** A fresh copy of the module, as each server bundle (route handlers, pages) holds its own. */
async function freshCopy(): Promise<Pagination> {
  vi.resetModules();
  return import("./pagination");
}

describe("iterateItems across copies of the pagination module", () => {
  it("follows the next page of a page made by another copy (the shared client is on globalThis)", async () => {
    const maker = await freshCopy();
    const reader = await freshCopy();
    expect(reader).not.toBe(maker);
    const page = (
      items: number[],
      next: string | null,
      fetchNext?: () => Promise<import("./pagination").Page<number>>,
    ) => {
      const p = maker.toPage<number>(
        { count: 3, total_pages: 2, page: 1, page_size: 2, next, previous: null, results: items },
        2,
      );
      if (fetchNext) p[maker.FETCH_NEXT] = fetchNext;
      return p;
    };
    const second = page([3], null);
    const first = page([1, 2], "http://api/public/transactions?page=2", async () => second);
    expect(await reader.collectAll(first)).toEqual([1, 2, 3]);
  });
});
