/**
 * `withUser`: the one wrapper every BFF route handler goes through, so that a
 * handler body is only its job. In order: request id → session (401) →
 * permission from the role table (403) → Origin check on writes (403) →
 * path / query / body parsing with zod schemas (400 naming the field; unknown
 * query parameters dropped; a NUL character anywhere is 400 naming its field; the body read within the route's
 * `maxBody`, 413 beyond it, checked from Content-Length before the session; a JSON body must say it is JSON, 415) → the browser's Idempotency-Key, derived per
 * user, on writes (400 without one) → company context from the cookie,
 * checked against the user's companies (403) → the handler → audit append
 * after a successful write → one error shape.
 */
import "server-only";
import { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { can, type Permission } from "../auth/roles";
import { appendAudit } from "../db/audit";
import type { CallContext, WriteContext } from "../treasury-client";
import { getConfig } from "../server/config";
import { originAllowed } from "./origin";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { requestContext, requestIdFrom, type BffContext } from "./context";
import { timed } from "./route-metrics";
import { BffError, toBffError, validationError } from "./errors";
import { derivedIdempotencyKey } from "./idempotency";
import { checkDeclaredLength, isJsonContentType, readLimitedBody, refuseNul } from "./input-guards";
import type { AuditAction } from "../audit-actions";
import type { Endpoint } from "./endpoint";

type AnyObject = z.ZodType<Record<string, unknown>>;

/** Path parameters of a `[id]` route: the id must be a UUID (400 `id must be a UUID`). */
export const IdParams = z.object({ id: Uuid });

/** Largest request body of a write unless its route declares another `maxBody` (bytes; 16 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;
/** Largest body of a settings write (a currency, a company, a passkey's name): 4 KiB. */
export const SETTINGS_MAX_BODY_BYTES = 4 * 1024;

/** Largest body of a passkey ceremony's answer (an attestation may carry a certificate chain): 64 KiB. */
export const PASSKEY_MAX_BODY_BYTES = 64 * 1024;
/** Largest body of a batch creation or change: 10,000 instructions (the API's own default batch body limit, 8 MiB). */
export const BATCH_MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface RouteOptions<P, Q, B> {
  permission: Permission;
  /**
   * `required` (default): the selected company is sent as X-Company-ID (403 when none);
   * `body`: as `required`, and the body's `company_id` must be the selected company (400 naming company_id);
   * `none`: the upstream call is not company-scoped (the cookie is still checked).
   */
  company?: "required" | "body" | "none";
  /** Skip the company-cookie check (only the company switcher, which replaces the cookie). */
  ignoreCompanyCookie?: boolean;
  /** Path-parameter schema (a zod object, e.g. `IdParams`); without one the handler gets no parameters. */
  params?: P;
  /** Query schema (a zod object; keys it does not name are dropped). */
  query?: Q;
  /** Body schema for writes. */
  body?: B;
  /** Present on writes: what goes into the audit log. */
  audit?: { action: AuditAction; objectType: string };
  /**
   * Largest request body in bytes (default `DEFAULT_MAX_BODY_BYTES`): a larger Content-Length is 413 before anything
   * else, and a body that streams past it is 413 as soon as it does (docs/security.md, request size).
   */
  maxBody?: number;
  /** The body's `company_id`, when set, must be one of the companies the dashboard knows (else 400 naming it). */
  knownCompany?: boolean;
  /** Success status (default 200; 204 when the handler returns undefined). */
  status?: number;
  /**
   * Whether the route exists on this dashboard (read per request; default always): when it returns false, every
   * request is a 404 `not_found` before the session, the body or anything else is looked at, so a switched-off route
   * (a test seam, docs/forecast.md#variance) cannot be told from one that was never there.
   */
  enabled?: () => boolean;
}

export interface RouteContext<P, Q, B> extends BffContext {
  params: P;
  query: Q;
  body: B;
  /** Upstream context of reads: the request id, and the selected company unless the route says `company: "none"`. */
  read: CallContext;
  /**
   * Upstream context of writes: `read` plus the Idempotency-Key derived from the user and the browser's key.
   * Set on POST / PATCH / DELETE only; reading it while handling a GET throws (a programming error, 500).
   */
  write: WriteContext;
  /** The incoming request, for a handler that reads a body other than JSON (a multipart upload). */
  request: NextRequest;
  /** Filled by a handler when the audit entry's object or company is not the default one. */
  audit: { objectId?: string | null; companyId?: string | null; details?: Record<string, unknown> };
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Segment = { params: Promise<Record<string, string | string[]>> };

/** True when the request's Origin is this dashboard's origin. */
function sameOrigin(req: NextRequest): boolean {
  const config = getConfig();
  return originAllowed(req.headers.get("origin"), config.NEXTAUTH_URL, config.DASHBOARD_ALLOWED_ORIGINS);
}

/**
 * The JSON value of a write's body (undefined when blank). @throws BffError 415 when a non-blank body is not declared
 * as JSON, 400 when it is not valid JSON or holds a NUL character (naming the field).
 */
function parseJsonBody(req: NextRequest, bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return undefined;
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw new BffError("unsupported_media_type", "Content-Type must be application/json for this request", {
      expected: "application/json",
      errors: { "Content-Type": ["must be application/json"] },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BffError("validation_error", "body is not valid JSON", { errors: { body: ["is not valid JSON"] } });
  }
  refuseNul(value, "body");
  return value;
}

function json(data: unknown, status: number, requestId: string, extra: Record<string, string> = {}): NextResponse {
  const headers = { "Cache-Control": "no-store", "X-Request-ID": requestId, ...extra };
  // The caller answers 204 for a handler that returned nothing, and a 204 has no body.
  if (status === 204) return new NextResponse(null, { status, headers });
  return NextResponse.json(data, { status, headers });
}

/**
 * Path, query and body, each parsed with its schema; a write's body is read within the route's size limit, and a
 * handler that reads the raw request (an upload) gets it from the bytes read.
 * @throws BffError 400 naming the first bad field (a NUL character anywhere included), 413 over the size limit, 415
 *   for a JSON body not declared as JSON.
 */
async function parseInput(
  req: NextRequest,
  segment: Segment,
  opts: RouteOptions<AnyObject | undefined, AnyObject | undefined, z.ZodType | undefined>,
): Promise<{ params: Record<string, unknown>; query: unknown; body: unknown; request: NextRequest }> {
  let params: Record<string, unknown> = {};
  if (opts.params) {
    const raw = (await segment.params) ?? {};
    refuseNul(raw, "path");
    const r = opts.params.safeParse(raw);
    if (!r.success) throw validationError(r.error, "path");
    params = r.data;
  }
  let query: unknown = undefined;
  if (opts.query) {
    const raw = Object.fromEntries(req.nextUrl.searchParams);
    refuseNul(raw, "query");
    const r = opts.query.safeParse(raw);
    if (!r.success) throw validationError(r.error, "query");
    query = r.data;
  }
  let body: unknown = undefined;
  let request = req;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const bytes = await readLimitedBody(req, opts.maxBody ?? DEFAULT_MAX_BODY_BYTES);
    if (opts.body) {
      const r = opts.body.safeParse(parseJsonBody(req, bytes));
      if (!r.success) throw validationError(r.error, "body");
      body = r.data;
    } else {
      // The body was read (counted): the handler reads the same bytes from a request of its own.
      request = new NextRequest(req.url, {
        method: req.method,
        headers: req.headers,
        body: bytes.byteLength > 0 ? bytes : undefined,
      });
    }
  }
  return { params, query, body, request };
}

/**
 * @throws BffError 400 naming `company_id` when the body names a company the dashboard does not know (neither one of
 * the user's nor, for an unrestricted user, one the Treasury API lists).
 */
function checkKnownCompany(ctx: BffContext, body: unknown): void {
  const id = bodyCompanyId(body);
  if (!id || ctx.companies.some((c) => c.id === id)) return;
  throw new BffError("validation_error", "company_id is not a known company", {
    errors: { company_id: ["is not a known company"] },
  });
}

/** The key sent upstream: UUIDv5 of the user and the browser's `Idempotency-Key`. @throws BffError 400 without one. */
function upstreamIdempotencyKey(req: NextRequest, userId: string): string {
  const browserKey = req.headers.get("idempotency-key");
  if (!browserKey || !Uuid.safeParse(browserKey).success) {
    throw new BffError("validation_error", "Idempotency-Key header must be a UUID", {
      errors: { "Idempotency-Key": ["must be a UUID"] },
    });
  }
  return derivedIdempotencyKey(userId, browserKey);
}

/**
 * The company sent upstream, or undefined for `company: "none"`; no mode (the default) means `"required"`.
 * @throws BffError 403 when the route needs a company and the user has none, 400 when the body names another one.
 */
function upstreamCompany(mode: RouteOptions<unknown, unknown, unknown>["company"], ctx: BffContext, body: unknown) {
  if (mode === "none") return undefined;
  if (!ctx.company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  if (mode === "body" && (body as { company_id?: unknown } | undefined)?.company_id !== ctx.company.id) {
    throw new BffError("validation_error", "company_id must be the selected company", {
      errors: { company_id: ["must be the selected company"] },
    });
  }
  return ctx.company.id;
}

/** Object id of the audit entry: the handler's, else the answer's `id`, else the path's `id`. */
function auditObjectId(set: string | null | undefined, result: unknown, params: Record<string, unknown>) {
  if (set) return set;
  if (typeof result === "object" && result !== null && "id" in result && typeof result.id === "string")
    return result.id;
  return typeof params.id === "string" ? params.id : null;
}

function bodyCompanyId(body: unknown): string | null {
  return typeof body === "object" && body !== null && "company_id" in body && typeof body.company_id === "string"
    ? body.company_id
    : null;
}

/** Appends the audit entry of a successful write; a replay answered from the API's idempotency store says so. */
async function recordAudit(
  what: { action: string; objectType: string },
  ctx: BffContext,
  r: {
    result: unknown;
    params: Record<string, unknown>;
    body: unknown;
    companyId: string | undefined;
    idempotencyKey: string | undefined;
    upstream: { replayed?: boolean };
    set: RouteContext<unknown, unknown, unknown>["audit"];
  },
): Promise<void> {
  // A batch is named by its reference in the audit log when the write's answer carries one.
  const reference = batchReference(what.objectType, r.result);
  const details = reference ? { reference, ...r.set.details } : r.set.details;
  await appendAudit(await dashboardDb(), {
    userId: ctx.user.id,
    userEmail: ctx.user.email,
    action: what.action,
    objectType: what.objectType,
    objectId: auditObjectId(r.set.objectId, r.result, r.params),
    companyId: r.set.companyId ?? r.companyId ?? bodyCompanyId(r.body),
    idempotencyKey: r.idempotencyKey ?? null,
    // A retry answered from the API's idempotency store changed nothing: logged, but not as a new success.
    outcome: r.upstream.replayed ? "replayed" : "success",
    requestId: ctx.requestId,
    ...(details ? { details } : {}),
  });
}

/** A batch answer's `reference` (the name the audit log shows for it), else null. */
function batchReference(objectType: string, result: unknown): string | null {
  if (objectType !== "payment_batch") return null;
  // Any answer: a primitive or null has no reference.
  const ref = (result as { reference?: unknown } | null | undefined)?.reference;
  return typeof ref === "string" && ref.trim() !== "" ? ref : null;
}

/**
 * Wraps a route handler. The handler gets the context with the parsed input
 * and returns the JSON body (or undefined for 204, or its own Response).
 */
export function withUser<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(opts: RouteOptions<P, Q, B>, handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>) {
  const route = timed(async (req: NextRequest, segment: Segment): Promise<NextResponse> => {
    const requestId = requestIdFrom(req.headers);
    const started = Date.now();
    const isWrite = req.method !== "GET" && req.method !== "HEAD";
    let userId: string | undefined;
    const log = (status: number, extra: Record<string, unknown> = {}) => ({
      requestId,
      method: req.method,
      path: req.nextUrl.pathname,
      status,
      ms: Date.now() - started,
      userId,
      ...extra,
    });
    try {
      if (opts.enabled && !opts.enabled()) throw new BffError("not_found", "There is no such route.");
      // Too large by its own declaration: refused before the session is looked at or a byte is read.
      if (isWrite) checkDeclaredLength(req.headers, opts.maxBody ?? DEFAULT_MAX_BODY_BYTES);
      const base = { ...(await requestContext({ ignoreCompanyCookie: opts.ignoreCompanyCookie })), requestId };
      userId = base.user.id;
      if (!can(base.user.roles, opts.permission))
        throw new BffError("permission_denied", "Your role does not allow this.", { permission: opts.permission });
      if (isWrite && !sameOrigin(req)) throw new BffError("permission_denied", "Cross-origin request refused.");
      const { params, query, body, request } = await parseInput(req, segment, opts);
      if (opts.knownCompany) checkKnownCompany(base, body);
      const idempotencyKey = isWrite ? upstreamIdempotencyKey(req, base.user.id) : undefined;
      const companyId = upstreamCompany(opts.company, base, body);

      const upstream: { replayed?: boolean } = {};
      const read: CallContext = { requestId, outcome: upstream, ...(companyId ? { companyId } : {}) };
      const write = idempotencyKey === undefined ? undefined : { ...read, idempotencyKey };
      const audit: RouteContext<unknown, unknown, unknown>["audit"] = {};
      const ctx = {
        ...base,
        upstream,
        params,
        query,
        body,
        read,
        get write(): WriteContext {
          if (!write) throw new Error("ctx.write is only set while handling a write (POST, PATCH, DELETE)");
          return write;
        },
        audit,
        request,
      } as RouteContext<Out<P>, Out<Q>, Out<B>>;
      const result = await handler(ctx);

      if (opts.audit) {
        await recordAudit(opts.audit, base, { result, params, body, companyId, idempotencyKey, upstream, set: audit });
      }
      // A handler may answer with its own Response (a streamed CSV export); it still gets the request id.
      if (result instanceof Response) {
        result.headers.set("X-Request-ID", requestId);
        logger.info(log(result.status), "bff request");
        return result as NextResponse;
      }
      const status = result === undefined ? 204 : (opts.status ?? 200);
      logger.info(log(status), "bff request");
      return json(result, status, requestId);
    } catch (err) {
      const mapped = toBffError(err, requestId);
      if (mapped.log) logger.error(log(mapped.status, { err }), "bff request failed");
      else logger.info(log(mapped.status), "bff request");
      return json(mapped.body, mapped.status, requestId, mapped.headers);
    }
  });
  // What the route takes, readable by tests that exercise every route from its schemas (the dashboard's fuzz test).
  return Object.assign(route, { routeInput: routeInput(opts) });
}

/**
 * One BFF route as its area declares it (docs/architecture.md#the-bff-declared-per-area): the endpoint (method and
 * path, lib/bff/areas/<area>/endpoints.ts), the options `withUser` enforces (permission, company mode, schemas, audit
 * action, body limit) and the handler. The route file at the endpoint's path exports it under the endpoint's method
 * (`export const GET = usersRoutes.list;`); lib/bff/areas/areas.test.ts checks every file against its declarations.
 */
export function declareRoute<
  E extends Endpoint,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(endpoint: E, opts: RouteOptions<P, Q, B>, handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>) {
  return Object.assign(withUser(opts, handler), { endpoint });
}

/**
 * A declared route that does not take a session (`withUser` does not apply: an invitation's acceptance, the API's
 * webhook receiver): the handler does its own checks, and is bound to its endpoint like `declareRoute`. Marked `open`, so tools that walk the session routes (the dashboard's write fuzz test) know it.
 */
export function declareOpenRoute<
  E extends Endpoint,
  H extends (req: NextRequest, segment: Segment) => Promise<Response>,
>(endpoint: E, handler: H): H & { endpoint: E; open: true } {
  return Object.assign(handler, { endpoint, open: true as const });
}

/**
 * An area's routes, checked against its endpoints: one route per endpoint, under the same key, bound to that very
 * endpoint (by type, and again when the module loads, so a route file can never serve another endpoint's handler).
 * @throws Error at module load when a key's route is bound to another endpoint (a programming error).
 */
export function defineRoutes<
  E extends Record<string, Endpoint>,
  R extends { [K in keyof E]: ((req: NextRequest, segment: Segment) => Promise<Response>) & { endpoint: E[K] } },
>(endpoints: E, routes: R): R {
  for (const key of Object.keys(endpoints)) {
    if (routes[key]?.endpoint !== endpoints[key]) throw new Error(`BFF route ${key} is not bound to its endpoint`);
  }
  return routes;
}

/** The declared input of a `withUser` route: permission, schemas and body limit. */
export interface RouteInput {
  permission: Permission;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  maxBody: number;
}

function routeInput(opts: RouteOptions<unknown, unknown, unknown>): RouteInput {
  const schema = (s: unknown) => (s instanceof z.ZodType ? s : undefined);
  return {
    permission: opts.permission,
    params: schema(opts.params),
    query: schema(opts.query),
    body: schema(opts.body),
    maxBody: opts.maxBody ?? DEFAULT_MAX_BODY_BYTES,
  };
}
