/**
 * Errors of the treasury client (docs/treasury-api.md#errors). Three kinds, so that callers can
 * tell "the API said no" from "we could not reach it" from "it answered
 * something we cannot read":
 * - `TreasuryApiError`: the API answered with a non-2xx status and (usually)
 *   the `{ error, message, details }` body.
 * - `TreasuryTransportError`: network failure or timeout (no answer).
 * - `TreasuryResponseError`: a 2xx answer that does not match the contract.
 */

/** The API answered with an error status. */
export class TreasuryApiError extends Error {
  readonly status: number;
  /** Code name from docs/treasury-api.md#errors (`validation_error`, `not_found`, ...) or an RFC 6749 code at the token endpoint. */
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** `X-Request-ID` of the upstream response, when present. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying (429), when the API said so. */
  readonly retryAfterSeconds: number | undefined;

  constructor(opts: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    requestId?: string;
    retryAfterSeconds?: number;
  }) {
    super(opts.message);
    this.name = "TreasuryApiError";
    this.status = opts.status;
    this.code = opts.code;
    this.details = opts.details ?? {};
    this.requestId = opts.requestId;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

/** No usable answer: the connection failed or the call timed out. */
export class TreasuryTransportError extends Error {
  readonly reason: "network" | "timeout" | "aborted";
  constructor(reason: "network" | "timeout" | "aborted", message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TreasuryTransportError";
    this.reason = reason;
  }
}

/** A 2xx answer whose body does not match the contract schema. */
export class TreasuryResponseError extends Error {
  readonly status: number;
  /** Where the body did not match, e.g. `results.3.amount: must be a decimal string`. */
  readonly issues: string[];
  constructor(message: string, status: number, issues: string[]) {
    super(message);
    this.name = "TreasuryResponseError";
    this.status = status;
    this.issues = issues;
  }
}
