/** The harness's midnight guard: a file never straddles a UTC midnight it could see coming. */
import { describe, expect, it } from "vitest";
import { MIDNIGHT_GUARD_MS, awayFromMidnight } from "./harness";

describe("awayFromMidnight", () => {
  it("does not wait at noon or just after midnight", async () => {
    expect(await awayFromMidnight(Date.parse("2026-11-23T12:00:00Z"))).toBe(0);
    expect(await awayFromMidnight(Date.parse("2026-11-24T00:00:01Z"))).toBe(0);
    expect(await awayFromMidnight(Date.parse("2026-11-23T23:59:59Z") - MIDNIGHT_GUARD_MS)).toBe(0);
  });

  it("waits until a second past midnight when midnight is near", async () => {
    const t0 = Date.now();
    expect(await awayFromMidnight(Date.parse("2026-11-23T23:59:59.700Z"))).toBe(1300);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1200);
  });
});
