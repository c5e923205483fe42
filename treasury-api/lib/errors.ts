/**
 * Domain and HTTP errors of the treasury-api (docs/treasury-api.md#errors, docs/architecture.md#errors).
 * Throw an `ApiError` anywhere in a handler or repository; the app's error
 * handler turns it into `{ error, message, details }` with the mapped status.
 */
import { ERROR_STATUS, type ErrorCode } from "@treasury/contract/errors";

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

/** 400 with one field error: `details.errors = { [field]: [message] }`. */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_error", `${field} ${message}`, { errors: { [field]: [message] } });
}

/** 404 for an object outside the caller's scope or that does not exist (never 403: no existence leak). */
export function notFound(what: string): ApiError {
  return new ApiError("not_found", `${what} was not found`);
}

/**
 * 403 for a company the caller may not act for, and for an upsert identity
 * (account, orgnr) held by such a company: one status, message and details for
 * both, so a refused upsert does not tell whether the identity exists in a
 * company the caller cannot see (docs/architecture.md#isolation).
 */
export function companyNotAccessible(): ApiError {
  return new ApiError("permission_denied", "The company is not accessible to this client");
}

/** 409 for an operation that does not fit the object's current state (docs/architecture.md#states-and-transitions). */
export function stateConflict(what: string, state: string, allowed: readonly string[], operation: string): ApiError {
  return new ApiError(
    "conflict",
    `Cannot ${operation} ${what} in state ${state}; allowed from: ${allowed.join(", ")}`,
    { state, allowed },
  );
}
