/**
 * Error bodies (docs/treasury-api.md#errors; docs/architecture.md#errors). `error` carries the code name of
 * the spec's table; field messages sit in `details.errors` keyed by field path.
 */
import { z } from "zod";

/**
 * The one field-path format of `details.errors`, on the API and the BFF alike:
 * `["instructions", 3, "creditor_iban"]` → `instructions[3].creditor_iban`.
 * An empty path gives `fallback` (the part of the request the error is about).
 */
export function fieldPath(path: readonly PropertyKey[], fallback = "body"): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || fallback;
}

/** Error codes and the HTTP status each maps to. */
export const ERROR_STATUS = {
  validation_error: 400,
  authentication_failed: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  throttled: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** `{ error, message, details }` — the one error shape of the API. */
export const ErrorBody = z
  .object({
    error: z.string().meta({ description: "Code name from spec §7, e.g. validation_error" }),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** RFC 6749 §5.2 token error codes (docs/architecture.md#tokens). */
export const OAuthErrorCode = z.enum([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
]);

/** Token endpoint error: RFC 6749 fields plus the spec's `message` / `details`. */
export const TokenErrorBody = z
  .object({
    error: OAuthErrorCode,
    error_description: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "TokenError" });
export type TokenErrorBody = z.infer<typeof TokenErrorBody>;
