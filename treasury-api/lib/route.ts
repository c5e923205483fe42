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
import { ApiError } from "./errors";
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

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ErrorBody } } });

/** The error responses every protected route may give. */
export const COMMON_ERROR_RESPONSES = {
  400: errorResponse("validation_error: malformed request, missing or bad field (details.errors by field path)"),
  401: errorResponse("authentication_failed: token missing, invalid or expired"),
  403: errorResponse("permission_denied: scope missing, company not accessible, write not approved, tenant mismatch"),
  404: errorResponse("not_found: no such object within the caller's scope (never 403, so existence does not leak)"),
  429: errorResponse("throttled: rate limit exceeded; see Retry-After"),
  500: errorResponse("internal_error"),
} as const;

export const WRITE_ERROR_RESPONSES = {
  409: errorResponse("conflict: idempotency key reused with another payload or still in progress, or the object's state does not allow the operation (details.state, details.allowed)"),
  413: errorResponse("payload_too_large: body over 1 MiB"),
  415: errorResponse("unsupported_media_type: body is not application/json"),
} as const;

function guard(scope: Scope, rule: CompanyRule, write: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (!caller) {
      throw new ApiError("authentication_failed", "Authorization: Bearer <access token> is required", {}, { "WWW-Authenticate": "Bearer" });
    }
    if (!caller.scopes.includes(scope)) {
      throw new ApiError("permission_denied", `The access token lacks the scope ${scope}`, { required_scope: scope });
    }
    if (write && !caller.writeApproved) {
      throw new ApiError("permission_denied", "Write access has not been approved for this client", { reason: "write_not_approved" });
    }
    if (caller.form === "B") {
      const tenantHeader = c.req.header("x-tenant-id");
      if (tenantHeader !== undefined && tenantHeader.toLowerCase() !== caller.tenantId) {
        throw new ApiError("permission_denied", "X-Tenant-ID does not name the tenant that owns this client's companies");
      }
    }
    const header = c.req.header("x-company-id");
    let companyId: string | null = null;
    if (header !== undefined) {
      if (!isUuid(header)) throw new ApiError("validation_error", "X-Company-ID must be a UUID", { errors: { "X-Company-ID": ["must be a UUID"] } });
      companyId = header.toLowerCase();
      if (!caller.companyIds.includes(companyId)) {
        throw new ApiError("permission_denied", "The company in X-Company-ID is not accessible to this client");
      }
    } else if (rule === "required" && caller.form === "B") {
      throw new ApiError("validation_error", "X-Company-ID header is required on company-scoped calls", { errors: { "X-Company-ID": ["is required"] } });
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
      throw new ApiError("unsupported_media_type", "The request body must be multipart/form-data", { content_type: type || null });
    }
    await next();
  };
}

function jsonBodyOnly(required: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const length = c.req.header("content-length");
    const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
    const type = c.req.header("content-type") ?? "";
    if ((hasBody || required) && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new ApiError("unsupported_media_type", "The request body must be JSON with Content-Type: application/json", { content_type: type || null });
    }
    await next();
  };
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
  if (write) middleware.push(multipart ? multipartBodyOnly() : jsonBodyOnly(Boolean(body?.required)), idempotency());
  const companyDoc =
    company === "required"
      ? "Form B: X-Company-ID required. Form A: X-Company-ID optional (narrows to that company)."
      : company === "optional"
        ? "X-Company-ID optional: absent means every company linked to the client (Form B) or of the tenant (Form A)."
        : "Not company-scoped.";
  return createRoute({
    ...rest,
    description: `${rest.description ?? ""}\n\nScope: \`${scope}\`. ${companyDoc}${write ? " Requires the Idempotency-Key header and an approved-write client." : ""}`.trim(),
    security: [{ bearerAuth: [scope] }],
    middleware,
    responses: { ...COMMON_ERROR_RESPONSES, ...(write ? WRITE_ERROR_RESPONSES : {}), ...def.responses },
  } as Omit<R, "scope" | "company" | "multipart"> & { middleware: MiddlewareHandler<AppEnv>[] });
}
