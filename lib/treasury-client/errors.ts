/**
 * Errors of the treasury client (docs/treasury-api.md#errors). Three kinds, so that callers can
 * tell "the API said no" from "we could not reach it" from "it answered
 * something we cannot read":
 * - `TreasuryApiError`: the API answered with a non-2xx status and (usually)
 *   the `{ error, message, details }` body.
 * - `TreasuryTransportError`: network failure or timeout (no answer).
 * - `TreasuryResponseError`: a 2xx answer that does not match the contract.
 */

/**
 * The kind of a client error, kept under a registered symbol: the production build holds several copies of this
 * module (one per server bundle) while the one Treasury client lives on `globalThis`, so an error made by one copy
 * must still be an `instanceof` of another copy's class (see lib/treasury-client/pagination.ts `FETCH_NEXT`).
 */
const KIND = Symbol.for("treasury.clientErrorKind");

/** `instanceof` by kind, not by class identity: true for an error of that kind made by any copy of this module. */
function isKind(value: unknown, kind: string): boolean {
  return typeof value === "object" && value !== null && (value as { [KIND]?: unknown })[KIND] === kind;
}

/** The API answered with an error status. */
export class TreasuryApiError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, "TreasuryApiError");
  }

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
    Object.defineProperty(this, KIND, { value: "TreasuryApiError" });
    this.status = opts.status;
    this.code = opts.code;
    this.details = opts.details ?? {};
    this.requestId = opts.requestId;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

/** No usable answer: the connection failed or the call timed out. */
export class TreasuryTransportError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, "TreasuryTransportError");
  }

  readonly reason: "network" | "timeout" | "aborted";
  constructor(reason: "network" | "timeout" | "aborted", message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TreasuryTransportError";
    Object.defineProperty(this, KIND, { value: "TreasuryTransportError" });
    this.reason = reason;
  }
}

/** A 2xx answer whose body does not match the contract schema. */
export class TreasuryResponseError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, "TreasuryResponseError");
  }

  readonly status: number;
  /** Where the body did not match, e.g. `results.3.amount: must be a decimal string`. */
  readonly issues: string[];
  constructor(message: string, status: number, issues: string[]) {
    super(message);
    this.name = "TreasuryResponseError";
    Object.defineProperty(this, KIND, { value: "TreasuryResponseError" });
    this.status = status;
    this.issues = issues;
  }
}
