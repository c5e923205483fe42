/**
 * Retry policy of the treasury client (docs/treasury-api.md#retries;
 * docs/architecture.md#treasury-client-rules). Pure functions, so every branch is unit-tested.
 *
 * - 429: wait `Retry-After` (seconds or an HTTP date), else
 *   `X-RateLimit-Reset` (Unix epoch seconds, or delta seconds when the value
 *   is too small to be an epoch), else exponential backoff.
 * - 5xx and network errors: exponential backoff with full jitter.
 * - Only safe requests are retried: GET / HEAD, or writes carrying an
 *   `Idempotency-Key` (the API replays the stored answer).
 * - 400, 403, 404 (and every other 4xx but 401 / 429) are never retried.
 */

export interface RetryPolicy {
  /** Total attempts including the first (>= 1). */
  maxAttempts: number;
  /** Backoff base in milliseconds. */
  baseDelayMs: number;
  /** Backoff ceiling in milliseconds. */
  maxDelayMs: number;
  /** Longest 429 wait honoured; a longer one fails at once instead of hanging the page. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
};

/** Epoch seconds are larger than this (2001-09-09); smaller reset values are deltas. */
const EPOCH_THRESHOLD_SECONDS = 1_000_000_000;

/** True when repeating the request cannot apply it twice. */
export function isSafeToRetry(method: string, idempotencyKey: string | undefined): boolean {
  const m = method.toUpperCase();
  return m === "GET" || m === "HEAD" || Boolean(idempotencyKey);
}

/** True for statuses worth a retry (429 and 5xx). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Milliseconds to wait after a 429, from the response headers; undefined when
 * neither header gives a usable value. `nowMs` is the current time.
 */
export function rateLimitWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.max(0, Math.ceil(Number(retryAfter) * 1000));
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const n = Number(reset);
    return n >= EPOCH_THRESHOLD_SECONDS ? Math.max(0, Math.ceil(n * 1000 - nowMs)) : Math.ceil(n * 1000);
  }
  return undefined;
}

/**
 * Exponential backoff with full jitter: a uniform random wait in
 * [0, min(maxDelayMs, baseDelayMs * 2^(attempt-1))). `attempt` counts from 1
 * (the attempt that just failed); `random` returns [0, 1).
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
