/** Age buckets of the unmatched view: a bucket's date range counted back from today, and the bucket of an age. */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { AGE_BUCKETS, ageBucketOf } from "../../views/unmatched";
import { bucketRange, bucketRangeOver, companyTodays } from "./unmatched";

describe("age buckets", () => {
  it("turn into inclusive date ranges counted back from today, across a month and a year end", () => {
    expect(bucketRange("0-2", "2026-03-01")).toEqual({ from_date: "2026-02-27", to_date: "2026-03-01" });
    expect(bucketRange("3-7", "2026-03-01")).toEqual({ from_date: "2026-02-22", to_date: "2026-02-26" });
    expect(bucketRange("8-30", "2026-01-05")).toEqual({ from_date: "2025-12-06", to_date: "2025-12-28" });
    expect(bucketRange("31+", "2026-01-05")).toEqual({ to_date: "2025-12-05" });
    expect(bucketRange("nope", "2026-01-05")).toEqual({});
  });

  it("cover every age exactly once, a date in the future counting as 0", () => {
    const keys = Array.from({ length: 400 }, (_, d) => ageBucketOf(d).key);
    expect(keys.slice(0, 3)).toEqual(["0-2", "0-2", "0-2"]);
    expect(keys[3]).toBe("3-7");
    expect(keys[7]).toBe("3-7");
    expect(keys[8]).toBe("8-30");
    expect(keys[30]).toBe("8-30");
    expect(keys[31]).toBe("31+");
    expect(keys[399]).toBe("31+");
    expect(ageBucketOf(-3).key).toBe("0-2");
    // Each bucket's range holds exactly the ages it names.
    const today = "2026-06-15";
    for (const b of AGE_BUCKETS) {
      const r = bucketRange(b.key, today);
      for (let age = 0; age < 60; age++) {
        const d = new Date(`${today}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() - age);
        const date = d.toISOString().slice(0, 10);
        const inRange = (!r.from_date || date >= r.from_date) && (!r.to_date || date <= r.to_date);
        expect(inRange, `${b.key} ${age}`).toBe(ageBucketOf(age).key === b.key);
      }
    }
  });

  it("span companies on either side of midnight: both todays' ranges, so each company's bucket is inside", () => {
    // 22:30 UTC: 23:30 in Oslo, 00:30 the next day in Helsinki (the hour a CI run failed on).
    const late = new Date("2026-11-27T22:30:00Z");
    expect(companyTodays([{ country: "NO" }, { country: "FI" }, { country: "SE" }], late)).toEqual([
      "2026-11-27",
      "2026-11-28",
    ]);
    expect(companyTodays([{ country: "NO" }, { country: "SE" }], late)).toEqual(["2026-11-27"]);
    expect(companyTodays([], late)).toEqual(["2026-11-27"]);
    expect(bucketRangeOver("0-2", ["2026-11-27", "2026-11-28"])).toEqual({
      from_date: "2026-11-25",
      to_date: "2026-11-28",
    });
    expect(bucketRangeOver("31+", ["2026-11-27", "2026-11-28"])).toEqual({ to_date: "2026-10-28" });
    expect(bucketRangeOver("3-7", ["2026-11-27"])).toEqual(bucketRange("3-7", "2026-11-27"));
    expect(bucketRangeOver("nope", ["2026-11-27"])).toEqual({});
  });
});
