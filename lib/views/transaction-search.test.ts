import { describe, expect, it } from "vitest";
import {
  SEARCH_ROW_LIMIT,
  searchPhase,
  searchSummary,
  shouldLoadForSearch,
  type SearchState,
} from "./transaction-search";

const base: SearchState = { q: "rent", loaded: 3000, total: 4210, hasNext: true, failed: false };

describe("transaction search over every page of the range", () => {
  it("without a search text the list only loads while scrolling", () => {
    const s = { ...base, q: null };
    expect(searchPhase(s)).toBe("browse");
    expect(shouldLoadForSearch(s, false)).toBe(false);
    expect(searchSummary(s, 3000)).toBe("3,000 shown · 3,000 loaded of 4,210 · scroll to load more");
    expect(searchPhase({ ...base, q: "" })).toBe("browse");
    expect(searchSummary({ ...s, failed: true }, 3000)).toBe(
      "3,000 shown · 3,000 loaded of 4,210 · loading more failed",
    );
  });

  it("with a search text it reads the next page, one at a time, and says how far it is", () => {
    expect(searchPhase(base)).toBe("loading");
    expect(shouldLoadForSearch(base, false)).toBe(true);
    expect(shouldLoadForSearch(base, true)).toBe(false);
    expect(searchSummary(base, 9)).toBe(
      "Searching every transaction of the range: 3,000 of 4,210 read · 9 matching “rent” so far",
    );
  });

  it("is complete when no page is left, whatever was loaded before", () => {
    const s = { ...base, loaded: 4210, hasNext: false };
    expect(searchPhase(s)).toBe("complete");
    expect(shouldLoadForSearch(s, false)).toBe(false);
    expect(searchSummary(s, 12)).toBe("12 matching “rent” among all 4,210 transactions of the range");
    expect(searchSummary({ ...s, loaded: 1000, total: null }, 3)).toBe(
      "3 matching “rent” among the 1,000 transactions the API returned for the range",
    );
  });

  it("stops at the row limit and says that only part of the range was searched", () => {
    const s = { ...base, loaded: SEARCH_ROW_LIMIT, total: 250_000 };
    expect(searchPhase(s)).toBe("capped");
    expect(shouldLoadForSearch(s, false)).toBe(false);
    expect(searchSummary(s, 40)).toContain("among the first 100,000 of 250,000 transactions");
  });

  it("stops after a failed page (no retry loop) and says so; Form A has no total", () => {
    const s = { ...base, failed: true, total: null };
    expect(searchPhase(s)).toBe("failed");
    expect(shouldLoadForSearch(s, false)).toBe(false);
    expect(searchSummary(s, 2)).toBe(
      "2 matching “rent” among the 3,000 transactions read so far; reading the rest failed.",
    );
  });
});
