/**
 * Per-request context of the treasury-api: who is calling (the token's form,
 * tenant, scopes and linked companies) and what data they may see.
 */
import type { Logger } from "pino";
import type { ApiForm, Scope } from "../../lib/contract/auth";
import type { Db } from "../db/client";
import type { AppConfig } from "../config";
import type { DataScope } from "./scope";

/** The authenticated caller, from the bearer token (spec §5). */
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
    /** Set by `defineRoute` from the company rule of the route. */
    scope: DataScope;
    /** Company header value when the route resolved one. */
    companyId: string | null;
    /** Headers every response of this request carries (rate limits), errors included. */
    responseHeaders: Record<string, string>;
  };
}
