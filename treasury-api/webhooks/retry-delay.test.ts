/**
 * The webhook retry delays (docs/architecture.md#webhooks): 1 min, 5 min, 30 min, 2 h,
 * 6 h, 12 h, 24 h after attempts 1 to 7, ± 20 % jitter, times the scale.
 * The worker's use of them is in retry-schedule.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from "./delivery";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The schedule in words, written out here rather than read from the code under test. */
export const SCHEDULE_MS = [1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];

describe("retryDelayMs", () => {
  it("is the schedule with ±20 % jitter at scale 1", () => {
    expect([...RETRY_DELAYS_MS]).toEqual(SCHEDULE_MS);
    expect(MAX_ATTEMPTS).toBe(8);
    SCHEDULE_MS.forEach((ms, i) => {
      expect(retryDelayMs(i + 1, 1, 0)).toBeCloseTo(ms * 0.8, 6);
      expect(retryDelayMs(i + 1, 1, 0.5)).toBeCloseTo(ms, 6);
      expect(retryDelayMs(i + 1, 1, 0.999_999)).toBeLessThan(ms * 1.2);
      expect(retryDelayMs(i + 1, 1, 0.999_999)).toBeGreaterThan(ms * 1.199);
    });
  });

  it("scales linearly and clamps the attempt number to the schedule", () => {
    expect(retryDelayMs(2, 0.5, 0.5)).toBeCloseTo(150_000, 6);
    expect(retryDelayMs(0, 1, 0.5)).toBeCloseTo(MIN, 6);
    expect(retryDelayMs(-3, 1, 0.5)).toBeCloseTo(MIN, 6);
    expect(retryDelayMs(8, 1, 0.5)).toBeCloseTo(24 * HOUR, 6);
    expect(retryDelayMs(100, 1, 0.5)).toBeCloseTo(24 * HOUR, 6);
  });
});
