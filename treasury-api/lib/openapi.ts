/**
 * The OpenAPI pieces every route declaration shares: response helpers
 * (`json`, the common error responses, the 429 headers), the `{id}` path
 * parameters, and the request headers a protected route documents besides
 * Authorization. Declarations only; the checks behind them live in
 * middleware/ and routes/define-route.ts.
 */
import { z } from "zod";
import { Uuid } from "@treasury/contract/common";
import { ErrorBody } from "@treasury/contract/errors";
import type { CompanyRule } from "./context";

/** A JSON response of `schema`, for a route's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Path parameters of `/{id}` routes: the id is always a UUID (400 otherwise). */
export const idParams = z.object({ id: Uuid });

const errorResponse = (description: string) => json(ErrorBody, description);

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

/**
 * Headers of a 429 answer (Retry-After and the rate-limit window), declared on every operation that may be throttled.
 */
export const THROTTLED_HEADERS = {
  "Retry-After": integerHeader("Seconds until the rate-limit window resets and the call may be retried"),
  "X-RateLimit-Limit": integerHeader("Requests allowed per window"),
  "X-RateLimit-Remaining": integerHeader("Requests left in the current window (0)"),
  "X-RateLimit-Reset": integerHeader("Unix epoch seconds when the window resets"),
};

/** The error responses every protected route may give. */
export const COMMON_ERROR_RESPONSES = {
  400: errorResponse("validation_error: malformed request, missing or bad field (details.errors by field path)"),
  401: errorResponse("authentication_failed: token missing, invalid or expired"),
  403: errorResponse("permission_denied: scope missing, company not accessible, write not approved, tenant mismatch"),
  404: errorResponse("not_found: no such object within the caller's scope (never 403, so existence does not leak)"),
  429: {
    ...errorResponse("throttled: rate limit exceeded; retry after Retry-After seconds"),
    headers: THROTTLED_HEADERS,
  },
  500: errorResponse("internal_error"),
} as const;

/** The further error responses of a write (idempotency conflicts, body size and type). */
export const WRITE_ERROR_RESPONSES = {
  409: errorResponse(
    "conflict: idempotency key reused with another payload or still in progress, or the object's state does not " +
      "allow the operation (details.state, details.allowed)",
  ),
  413: errorResponse("payload_too_large: body over 1 MiB"),
  415: errorResponse("unsupported_media_type: body is not application/json"),
} as const;

type HeaderParameter = {
  name: string;
  in: "header";
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
};

const UUID_SCHEMA = { type: "string", format: "uuid" };

/**
 * The request headers a route reads besides Authorization, as OpenAPI parameters (tenant, company, idempotency key).
 */
export function headerParameters(rule: CompanyRule, write: boolean): HeaderParameter[] {
  const params: HeaderParameter[] = [
    {
      name: "X-Tenant-ID",
      in: "header",
      required: false,
      description:
        "Form A: required, the tenant the token is bound to (missing: 400; another tenant: 403). Form B: optional; " +
        "if sent, the tenant that owns the client's companies (else 403).",
      schema: UUID_SCHEMA,
    },
  ];
  if (rule !== "none") {
    params.push({
      name: "X-Company-ID",
      in: "header",
      required: false,
      description:
        rule === "required"
          ? "Form B: required (missing: 400; not linked to the client: 403). Form A: optional, a company of the " +
            "tenant; narrows the data to it."
          : "Optional: absent means every company linked to the client (Form B) or of the tenant (Form A); present " +
            "narrows to that company (not accessible: 403).",
      schema: UUID_SCHEMA,
    });
  }
  if (write) {
    params.push({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      description:
        "Required on every write (missing: 400). 1–255 visible ASCII characters, kept 24 hours per OAuth client; a " +
        "retry with the same key and request replays the stored response with Idempotent-Replayed: true.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    });
  }
  return params;
}

/** The sentence of a route's description that states its company rule. */
export function companyRuleDoc(rule: CompanyRule): string {
  if (rule === "required")
    return "Form B: X-Company-ID required. Form A: X-Company-ID optional (narrows to that company).";
  if (rule === "optional")
    return "X-Company-ID optional: absent means every company linked to the client (Form B) or of the tenant (Form A).";
  return "Not company-scoped.";
}
