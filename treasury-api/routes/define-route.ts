/**
 * `defineRoute`: one declaration per endpoint that carries the OpenAPI
 * description AND the access rules: the scope it needs, its company-header
 * rule and, for writes, write approval, the body checks and idempotency.
 * Handlers then only do their job with `c.get("scope")`.
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Scope } from "@treasury/contract/auth";
import type { AppEnv, CompanyRule } from "../lib/context";
import { COMMON_ERROR_RESPONSES, WRITE_ERROR_RESPONSES, companyRuleDoc, headerParameters } from "../lib/openapi";
import { accessGuard } from "../middleware/access";
import { jsonBody, multipartBodyOnly } from "../middleware/body";
import { idempotency } from "../middleware/idempotency";

type Method = "get" | "post" | "patch" | "delete" | "put";

export type TreasuryRouteConfig = Omit<RouteConfig, "method" | "middleware" | "responses"> & {
  method: Method;
  scope: Scope;
  company: CompanyRule;
  /** The write's body is `multipart/form-data` (file upload) instead of JSON. */
  multipart?: boolean;
  responses: RouteConfig["responses"];
};

/**
 * Declares a protected route. Writes (POST, PATCH, PUT, DELETE) get write
 * approval, the body check and idempotency; every route gets the common
 * error responses in its OpenAPI description.
 */
export function defineRoute<const R extends TreasuryRouteConfig>(def: R) {
  const { scope, company, multipart, ...rest } = def;
  const write = def.method !== "get";
  const body = def.request?.body;
  const middleware: MiddlewareHandler<AppEnv>[] = [accessGuard(scope, company, write)];
  if (write)
    middleware.push(
      multipart ? multipartBodyOnly() : jsonBody(body ? (body.required ? "required" : "optional") : "none"),
      idempotency(),
    );
  return createRoute({
    ...rest,
    description: `${rest.description ?? ""}\n\nScope: \`${scope}\`. ${companyRuleDoc(company)}${
      write ? " Requires the " + "Idempotency-Key header and an approved-write client." : ""
    }`.trim(),
    security: [{ bearerAuth: [scope] }],
    parameters: [...headerParameters(company, write), ...(rest.parameters ?? [])],
    middleware,
    responses: { ...COMMON_ERROR_RESPONSES, ...(write ? WRITE_ERROR_RESPONSES : {}), ...def.responses },
  } as Omit<R, "scope" | "company" | "multipart"> & { middleware: MiddlewareHandler<AppEnv>[] });
}
