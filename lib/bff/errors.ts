/**
 * The BFF's one error shape and its one code → status map, so that every
 * route fails the same way. The browser always gets
 * `{ error, message, details, request_id }` with a message a person
 * understands; upstream internals and stack traces go to the server log only.
 */
import "server-only";
import { ZodError } from "zod";
import { ERROR_STATUS, fieldPath } from "@treasury/contract/errors";
import { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "../treasury-client";

/** Code → status of the BFF: the API's codes plus two gateway codes and the passkey step-up refusal. */
export const BFF_ERROR_STATUS = {
  ...ERROR_STATUS,
  bad_gateway: 502,
  gateway_timeout: 504,
  step_up_required: 403,
} as const;
export type BffErrorCode = keyof typeof BFF_ERROR_STATUS;

/** The body every failed BFF call answers with. */
export interface BffErrorBody {
  error: string;
  message: string;
  details: Record<string, unknown>;
  request_id: string;
}

/** An error raised by the BFF itself (session, permission, input, company). */
export class BffError extends Error {
  readonly code: BffErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    code: BffErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "BffError";
    this.code = code;
    this.status = BFF_ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

/**
 * 400 from a zod error: `details.errors` keyed by field path in the API's format
 * (`instructions[3].creditor_iban`); the message names the first field.
 */
export function validationError(err: ZodError, where: "query" | "body" | "path"): BffError {
  const errors: Record<string, string[]> = {};
  for (const issue of err.issues) {
    const key = fieldPath(issue.path, where);
    (errors[key] ??= []).push(issue.message);
  }
  const [firstField, firstMessages] = Object.entries(errors)[0] ?? [where, ["is invalid"]];
  return new BffError("validation_error", `${firstField} ${firstMessages[0] ?? "is invalid"}`, { errors });
}

/** Human wording for upstream failures the user cannot fix by editing input. */
function upstreamMessage(e: TreasuryApiError): { code: BffErrorCode; message: string } {
  switch (e.status) {
    case 400:
      return { code: "validation_error", message: e.message };
    case 401:
      return {
        code: "bad_gateway",
        message:
          "The dashboard could not sign in to the Treasury API. " +
          "An administrator should check the API client credentials.",
      };
    case 403:
      return {
        code: "permission_denied",
        message: `The Treasury API refused this for the dashboard's API client: ${e.message}`,
      };
    case 404:
      return { code: "not_found", message: "This item does not exist or is not visible for the selected company." };
    case 409:
      return { code: "conflict", message: e.message };
    case 429:
      // The client has already waited out what a page can wait; the API is busy, not the person over a limit.
      return {
        code: "service_unavailable",
        message: `The Treasury API is busy; retry in ${e.retryAfterSeconds ?? 5} s`,
      };
    default:
      if (e.status >= 500)
        return {
          code: "service_unavailable",
          message: "The Treasury API is not available right now. Try again shortly.",
        };
      return { code: "bad_gateway", message: `The Treasury API answered with status ${e.status}.` };
  }
}

/**
 * Maps any thrown value to the error body and status. Unknown errors become
 * a generic 500; their detail is for the log (returned as `log`).
 */
export function toBffError(
  err: unknown,
  requestId: string,
): { status: number; body: BffErrorBody; headers: Record<string, string>; log: boolean } {
  const body = (code: string, message: string, details: Record<string, unknown> = {}): BffErrorBody => ({
    error: code,
    message,
    details,
    request_id: requestId,
  });
  if (err instanceof BffError)
    return { status: err.status, body: body(err.code, err.message, err.details), headers: err.headers, log: false };
  if (err instanceof ZodError) {
    const v = validationError(err, "body");
    return { status: 400, body: body(v.code, v.message, v.details), headers: {}, log: false };
  }
  if (err instanceof TreasuryApiError) {
    const { code, message } = upstreamMessage(err);
    const details: Record<string, unknown> = err.status === 400 || err.status === 409 ? err.details : {};
    if (err.requestId) details.upstream_request_id = err.requestId;
    const headers: Record<string, string> =
      err.status === 429 ? { "Retry-After": String(err.retryAfterSeconds ?? 5) } : {};
    return {
      status: BFF_ERROR_STATUS[code],
      body: body(code, message, details),
      headers,
      log: err.status >= 500 || err.status === 401,
    };
  }
  if (err instanceof TreasuryTransportError) {
    const timeout = err.reason === "timeout";
    return {
      status: timeout ? 504 : 503,
      body: body(
        timeout ? "gateway_timeout" : "service_unavailable",
        timeout
          ? "The Treasury API took too long to answer. Try again."
          : "The Treasury API cannot be reached right now. Try again shortly.",
      ),
      headers: {},
      log: true,
    };
  }
  if (err instanceof TreasuryResponseError) {
    return {
      status: 502,
      body: body("bad_gateway", "The Treasury API answered in an unexpected format."),
      headers: {},
      log: true,
    };
  }
  return {
    status: 500,
    body: body("internal_error", "Something went wrong in the dashboard. The request id helps support find it."),
    headers: {},
    log: true,
  };
}
