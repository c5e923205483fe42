/**
 * The access check of every protected route, run before its handler: a
 * caller must be present (401), hold the route's scope (403), be approved for
 * writes on a write (403), send a Form B tenant header only for its own
 * tenant (403), and send X-Company-ID as the route's company rule demands
 * (400 when missing or not a UUID, 403 when not accessible). Sets
 * `companyId` and the `scope` the handler's queries are narrowed to.
 */
import type { MiddlewareHandler } from "hono";
import type { Scope } from "@treasury/contract/auth";
import type { AppEnv, CompanyRule } from "../lib/context";
import { ApiError, companyNotAccessible } from "../lib/errors";
import { isUuid } from "../lib/validation";

/** The access middleware of a route needing `scope`, with company rule `rule`; `write` adds write approval. */
export function accessGuard(scope: Scope, rule: CompanyRule, write: boolean): MiddlewareHandler<AppEnv> {
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
