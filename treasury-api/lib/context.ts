/**
 * Per-request context of the treasury-api: who is calling (the token's form,
 * tenant, scopes and linked companies) and what data they may see.
 */
import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Logger } from "pino";
import type { ApiForm, Scope } from "@treasury/contract/auth";
import type { Db } from "../db/client";
import type { AppConfig } from "../config";
import type { DataScope } from "./scope";
import { ApiError } from "./errors";

/**
 * How a route treats the X-Company-ID header:
 * - `required`: Form B must send X-Company-ID (bank data, reporting, payments);
 * - `optional`: absent means every linked company (approvals, reconciliation);
 * - `none`: the route is not company-scoped (organization, webhooks); a header, if sent, is still checked.
 */
export type CompanyRule = "required" | "optional" | "none";

/** The authenticated caller, from the bearer token (docs/treasury-api.md#authentication-and-scopes). */
export interface Caller {
  /** Internal UUID of the OAuth client. */
  clientId: string;
  /** The public `client_id`. */
  clientName: string;
  form: ApiForm;
  /** The tenant the token is bound to. */
  tenantId: string;
  scopes: Scope[];
  writeApproved: boolean;
  /** Form B: the companies linked to the client; Form A: every company of the tenant. */
  companyIds: string[];
}

/** Hono environment of the app: services and per-request variables. */
export interface AppEnv {
  Variables: {
    db: Db;
    config: AppConfig;
    logger: Logger | null;
    requestId: string;
    caller: Caller | null;
    /** Set by the route guard from the company rule of the route. */
    scope: DataScope;
    /** Company header value when the route resolved one. */
    companyId: string | null;
    /** Headers every response of this request carries (rate limits), errors included. */
    responseHeaders: Record<string, string>;
  };
}

/**
 * The caller of a protected route. The route guard refuses a request without
 * one, so a missing caller here is a wiring fault (a handler on an unguarded
 * route), answered as 401 rather than trusted.
 */
export function requireCaller(c: { get(key: "caller"): Caller | null }): Caller {
  const caller = c.get("caller");
  if (!caller) throw new ApiError("authentication_failed", "Authorization: Bearer token is required");
  return caller;
}

/** A handler typed by its route: `c.req.valid(...)` and the answer are checked against the declaration. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

/** The context a handler of route `R` receives. */
export type RouteContext<R extends RouteConfig> = Parameters<AppRouteHandler<R>>[0];
