/**
 * `defineRoute`: one declaration per endpoint that carries the OpenAPI
 * description AND the access rules (spec §4 conventions, §5; DESIGN.md "One
 * service, both forms"): the scope it needs, its company-header rule and, for
 * writes, write approval, JSON content type and idempotency. Handlers then
 * only do their job with `c.get("scope")`.
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Scope } from "../../lib/contract/auth";
import { ErrorBody } from "../../lib/contract/errors";
import type { AppEnv } from "./context";
import { ApiError, companyNotAccessible } from "./errors";
import { isUuid } from "../middleware/auth";
import { idempotency } from "../middleware/idempotency";

/**
 * - `required`: Form B must send X-Company-ID (bank data, reporting, payments);
 * - `optional`: absent means every linked company (approvals, reconciliation);
 * - `none`: the route is not company-scoped (organization, webhooks); a header, if sent, is still checked.
 */
export type CompanyRule = "required" | "optional" | "none";

type Method = "get" | "post" | "patch" | "delete" | "put";

export type TreasuryRouteConfig = Omit<RouteConfig, "method" | "middleware" | "responses"> & {
  method: Method;
  scope: Scope;
  company: CompanyRule;
  /** The write's body is `multipart/form-data` (file upload) instead of JSON. */
  multipart?: boolean;
  responses: RouteConfig["responses"];
};

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorBody } },
});

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

/** Headers of a 429 (DESIGN.md "Rate limits"); the X-RateLimit-* ones are on every response. */
/** Headers of a 429 answer (Retry-After and the rate-limit window), declared on every operation that may be throttled. */
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

export const WRITE_ERROR_RESPONSES = {
  409: errorResponse(
    "conflict: idempotency key reused with another payload or still in progress, or the object's state does not allow the operation (details.state, details.allowed)",
  ),
  413: errorResponse("payload_too_large: body over 1 MiB"),
  415: errorResponse("unsupported_media_type: body is not application/json"),
} as const;

function guard(scope: Scope, rule: CompanyRule, write: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (!caller) {
      throw new ApiError(
        "authentication_failed",
        "Authorization: Bearer <access token> is required",
        {},
        { "WWW-Authenticate": "Bearer" },
      );
    }
    if (!caller.scopes.includes(scope)) {
      throw new ApiError("permission_denied", `The access token lacks the scope ${scope}`, { required_scope: scope });
    }
    if (write && !caller.writeApproved) {
      throw new ApiError("permission_denied", "Write access has not been approved for this client", {
        reason: "write_not_approved",
      });
    }
    if (caller.form === "B") {
      const tenantHeader = c.req.header("x-tenant-id");
      if (tenantHeader !== undefined && tenantHeader.toLowerCase() !== caller.tenantId) {
        throw new ApiError(
          "permission_denied",
          "X-Tenant-ID does not name the tenant that owns this client's companies",
        );
      }
    }
    const header = c.req.header("x-company-id");
    let companyId: string | null = null;
    if (header !== undefined) {
      if (!isUuid(header))
        throw new ApiError("validation_error", "X-Company-ID must be a UUID", {
          errors: { "X-Company-ID": ["must be a UUID"] },
        });
      companyId = header.toLowerCase();
      if (!caller.companyIds.includes(companyId)) {
        throw companyNotAccessible();
      }
    } else if (rule === "required" && caller.form === "B") {
      throw new ApiError("validation_error", "X-Company-ID header is required on company-scoped calls", {
        errors: { "X-Company-ID": ["is required"] },
      });
    }
    c.set("companyId", rule === "none" ? null : companyId);
    c.set("scope", {
      tenantId: caller.tenantId,
      companyIds: rule !== "none" && companyId ? [companyId] : caller.form === "A" ? null : caller.companyIds,
    });
    await next();
  };
}

function multipartBodyOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw new ApiError("unsupported_media_type", "The request body must be multipart/form-data", {
        content_type: type || null,
      });
    }
    await next();
  };
}

/** How a write route takes its body: `required`, `optional` (approve, confirm, ...) or `none` (submit, test, delete). */
type BodyRule = "required" | "optional" | "none";

/**
 * The body rules of every write, before the body is validated:
 * - a body must be JSON (415 otherwise);
 * - an empty body (no bytes, or only whitespace) means "no body" whatever the
 *   Content-Type says: a required body answers 400 "is required"; an optional
 *   one is treated as absent, exactly as without Content-Type;
 * - a route without a body accepts none, or an empty JSON object `{}`.
 */
function jsonBody(rule: BodyRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const length = c.req.header("content-length");
    const type = c.req.header("content-type") ?? "";
    // Content-Length / Transfer-Encoding announce a body; a request built in-process may carry one without them.
    const announced = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
    const text = type || announced || c.req.raw.body !== null ? await c.req.text() : "";
    if ((text.length > 0 || rule === "required") && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new ApiError(
        "unsupported_media_type",
        "The request body must be JSON with Content-Type: application/json",
        { content_type: type || null },
      );
    }
    if (text.trim() === "") {
      if (rule === "required")
        throw new ApiError("validation_error", "The request body is required", { errors: { body: ["is required"] } });
      if (type) {
        // The body validator would parse "" as JSON; without Content-Type it takes the body as absent.
        const headers = new Headers(c.req.raw.headers);
        headers.delete("content-type");
        c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
      }
    } else if (rule === "none" && !isEmptyJsonObject(text)) {
      throw new ApiError(
        "validation_error",
        "This operation takes no request body (an empty JSON object {} is accepted)",
        { errors: { body: ["must be empty or {}"] } },
      );
    }
    await next();
  };
}

function isEmptyJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

type HeaderParameter = {
  name: string;
  in: "header";
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
};

const UUID_SCHEMA = { type: "string", format: "uuid" };

/** The request headers a route reads besides Authorization, as OpenAPI parameters (DESIGN.md "One service, both forms", "Idempotency"). */
function headerParameters(rule: CompanyRule, write: boolean): HeaderParameter[] {
  const params: HeaderParameter[] = [
    {
      name: "X-Tenant-ID",
      in: "header",
      required: false,
      description:
        "Form A: required, the tenant the token is bound to (missing: 400; another tenant: 403). Form B: optional; if sent, the tenant that owns the client's companies (else 403).",
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
          ? "Form B: required (missing: 400; not linked to the client: 403). Form A: optional, a company of the tenant; narrows the data to it."
          : "Optional: absent means every company linked to the client (Form B) or of the tenant (Form A); present narrows to that company (not accessible: 403).",
      schema: UUID_SCHEMA,
    });
  }
  if (write) {
    params.push({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      description:
        "Required on every write (missing: 400). 1–255 visible ASCII characters, kept 24 hours per OAuth client; a retry with the same key and request replays the stored response with Idempotent-Replayed: true.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    });
  }
  return params;
}

/**
 * Declares a protected route. Writes (POST, PATCH, PUT, DELETE) get write
 * approval, the JSON body check and idempotency; every route gets the common
 * error responses in its OpenAPI description.
 */
export function defineRoute<const R extends TreasuryRouteConfig>(def: R) {
  const { scope, company, multipart, ...rest } = def;
  const write = def.method !== "get";
  const body = def.request?.body;
  const middleware: MiddlewareHandler<AppEnv>[] = [guard(scope, company, write)];
  if (write)
    middleware.push(
      multipart ? multipartBodyOnly() : jsonBody(body ? (body.required ? "required" : "optional") : "none"),
      idempotency(),
    );
  const companyDoc =
    company === "required"
      ? "Form B: X-Company-ID required. Form A: X-Company-ID optional (narrows to that company)."
      : company === "optional"
        ? "X-Company-ID optional: absent means every company linked to the client (Form B) or of the tenant (Form A)."
        : "Not company-scoped.";
  return createRoute({
    ...rest,
    description:
      `${rest.description ?? ""}\n\nScope: \`${scope}\`. ${companyDoc}${write ? " Requires the Idempotency-Key header and an approved-write client." : ""}`.trim(),
    security: [{ bearerAuth: [scope] }],
    parameters: [...headerParameters(company, write), ...(rest.parameters ?? [])],
    middleware,
    responses: { ...COMMON_ERROR_RESPONSES, ...(write ? WRITE_ERROR_RESPONSES : {}), ...def.responses },
  } as Omit<R, "scope" | "company" | "multipart"> & { middleware: MiddlewareHandler<AppEnv>[] });
}
