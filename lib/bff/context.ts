/**
 * The request context shared by server components and route handlers: who
 * is signed in, which companies they may see, the selected company and the
 * request id. The query functions in `lib/bff/queries` take this context, so
 * one function serves a page's prefetch and its route handler alike.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { cookies, headers } from "next/headers";
import type { Company } from "@treasury/contract";
import type { DashboardUser } from "../db/users";
import { currentUser } from "../auth/session";
import { COMPANY_COOKIE, chooseCompany, visibleCompanies } from "./company";
import { BffError } from "./errors";
import type { CallContext, WriteContext } from "../treasury-client";

export interface BffContext {
  user: DashboardUser;
  /** Companies the user may see. */
  companies: Company[];
  /** The selected company (null when the user may see none). */
  company: Company | null;
  requestId: string;
  /** Filled by the treasury client on writes (idempotent replay or not), read by the audit step. */
  upstream?: { replayed?: boolean };
}

/**
 * The context of a request that writes upstream: `write` carries the request
 * id, the Idempotency-Key derived from the user and the browser's key, and the
 * selected company when the route is company-scoped (`withUser` builds it).
 */
export interface WriteScope extends BffContext {
  write: WriteContext;
}

/** The request id from `X-Request-ID` when it is well-formed, else a new one. */
export function requestIdFrom(h: Headers): string {
  const given = h.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
}

/**
 * Builds the context of the current request.
 * `ignoreCompanyCookie` is for the company switcher itself, which must be
 * able to replace a cookie that is no longer allowed.
 * @throws BffError 401 without a valid session, 403 for a company cookie the user may not use.
 */
export async function requestContext(opts: { ignoreCompanyCookie?: boolean } = {}): Promise<BffContext> {
  const requestId = requestIdFrom(await headers());
  const user = await currentUser();
  if (!user) throw new BffError("authentication_failed", "Sign in to continue.");
  const companies = await visibleCompanies(user, requestId);
  const cookie = opts.ignoreCompanyCookie ? undefined : (await cookies()).get(COMPANY_COOKIE)?.value;
  const company = chooseCompany(user, companies, cookie);
  return { user, companies, company, requestId };
}

/** Upstream call context for company-scoped reads. @throws 403 when no company is available. */
export function companyCall(ctx: BffContext): CallContext & { companyId: string } {
  if (!ctx.company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  return { companyId: ctx.company.id, requestId: ctx.requestId, outcome: ctx.upstream };
}

/** Upstream call context for calls that are not company-scoped. */
export function plainCall(ctx: BffContext): CallContext {
  return { requestId: ctx.requestId, outcome: ctx.upstream };
}

/**
 * `call` as a background read (`priority: "background"`): bulk and fan-out reads — account enrichment, CSV
 * exports, searches across pages, cross-company fan-out — that wait for the next rate-limit window when the
 * client's budget is low, so that the budget left goes to the page loads a person is waiting for.
 */
export function background<C extends CallContext>(call: C): C & { priority: "background" } {
  return { ...call, priority: "background" };
}
