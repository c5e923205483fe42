import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, backoffDelayMs, isRetryableStatus, isSafeToRetry, rateLimitWaitMs } from "./retry";

const NOW = Date.UTC(2026, 0, 10, 8, 0, 0);

describe("retry policy", () => {
  it("only GET/HEAD or keyed writes are safe", () => {
    expect(isSafeToRetry("GET", undefined)).toBe(true);
    expect(isSafeToRetry("head", undefined)).toBe(true);
    expect(isSafeToRetry("POST", undefined)).toBe(false);
    expect(isSafeToRetry("POST", "k")).toBe(true);
    expect(isSafeToRetry("DELETE", "")).toBe(false);
  });

  it("retries 429 and 5xx only", () => {
    expect([400, 401, 403, 404, 409, 429, 500, 503].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it("reads Retry-After as seconds or an HTTP date, then X-RateLimit-Reset", () => {
    expect(rateLimitWaitMs(new Headers({ "retry-after": "2" }), NOW)).toBe(2000);
    expect(rateLimitWaitMs(new Headers({ "retry-after": new Date(NOW + 5000).toUTCString() }), NOW)).toBe(5000);
    expect(rateLimitWaitMs(new Headers({ "x-ratelimit-reset": String(NOW / 1000 + 9) }), NOW)).toBe(9000);
    expect(rateLimitWaitMs(new Headers({ "x-ratelimit-reset": "4" }), NOW)).toBe(4000);
    expect(rateLimitWaitMs(new Headers({ "x-ratelimit-reset": String(NOW / 1000 - 5) }), NOW)).toBe(0);
    expect(rateLimitWaitMs(new Headers({ "retry-after": "soon" }), NOW)).toBeUndefined();
    expect(rateLimitWaitMs(new Headers(), NOW)).toBeUndefined();
  });

  it("backoff doubles up to the ceiling, scaled by the jitter draw", () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, p, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(3, p, () => 0)).toBe(0);
  });
});
