/**
 * `withUser`: the one wrapper every BFF route handler goes through (issue 4
 * §5; STYLE.md "Every BFF route handler is one wrapper call"). In order:
 * request id → session (401) → permission from the role table (403) →
 * Origin check on writes (403) → path / query / body parsing with the
 * contract schemas (400 naming the field; unknown query parameters dropped)
 * → company context from the cookie, checked against the user's companies
 * (403) → the browser's Idempotency-Key, derived per user, on writes → the
 * handler → audit append after a successful write → one error shape.
 */
import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { Uuid } from "../contract";
import { can, type Permission } from "../auth/roles";
import { appendAudit } from "../db/audit";
import type { CallContext } from "../treasury-client";
import { getConfig } from "../server/config";
import { requestContext, requestIdFrom, type BffContext } from "./context";
import { dashboardDb } from "../server/db";
import { BffError, toBffError, validationError } from "./errors";
import { derivedIdempotencyKey } from "./idempotency";
import { logger } from "../server/log";

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteOptions<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  permission: Permission;
  /**
   * `required`: the selected company is sent as X-Company-ID (403 when none);
   * `none`: the upstream call is not company-scoped (the cookie is still checked).
   */
  company?: "required" | "none";
  /** Skip the company-cookie check (only the company switcher, which replaces the cookie). */
  ignoreCompanyCookie?: boolean;
  /** Query schema (a zod object; keys it does not name are dropped). */
  query?: Q;
  /** Body schema for writes. */
  body?: B;
  /** Present on writes: what goes into the audit log. */
  audit?: { action: string; objectType: string };
  /** Success status (default 200; 204 when the handler returns undefined). */
  status?: number;
}

export interface RouteContext<Q, B> extends BffContext {
  /** Path parameters, each checked to be a UUID. */
  params: Record<string, string>;
  query: Q;
  body: B;
  /** Upstream call context: company (when required), request id, and on writes the derived Idempotency-Key. */
  call: CallContext;
  /** The derived key sent upstream (writes only). */
  idempotencyKey: string | undefined;
  /** The incoming request, for a handler that reads a body other than JSON (a multipart upload). */
  request: NextRequest;
  /** Filled by a handler when the audit entry's object or company is not the default one. */
  audit: { objectId?: string | null; companyId?: string | null; details?: Record<string, unknown> };
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/** True when the request's Origin is this dashboard's origin. */
function sameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return false;
  const allowed = new Set<string>([req.nextUrl.origin]);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (host) allowed.add(`${req.headers.get("x-forwarded-proto") ?? req.nextUrl.protocol.replace(":", "")}://${host}`);
  const configured = getConfig().NEXTAUTH_URL;
  if (configured) allowed.add(new URL(configured).origin);
  return allowed.has(origin);
}

async function readJson(req: NextRequest): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BffError("validation_error", "body is not valid JSON", { errors: { body: ["is not valid JSON"] } });
  }
}

function json(data: unknown, status: number, requestId: string, extra: Record<string, string> = {}): NextResponse {
  const headers = { "Cache-Control": "no-store", "X-Request-ID": requestId, ...extra };
  if (data === undefined || status === 204)
    return new NextResponse(null, { status: status === 200 ? 204 : status, headers });
  return NextResponse.json(data, { status, headers });
}

/**
 * Wraps a route handler. The handler gets the parsed input and the context
 * and returns the JSON body (or undefined for 204).
 */
export function withUser<Q extends AnyObject | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  opts: RouteOptions<Q, B>,
  handler: (ctx: RouteContext<Out<Q>, Out<B>>) => Promise<unknown>,
) {
  return async (
    req: NextRequest,
    segment: { params: Promise<Record<string, string | string[]>> },
  ): Promise<NextResponse> => {
    const requestId = requestIdFrom(req.headers);
    const started = Date.now();
    const isWrite = req.method !== "GET" && req.method !== "HEAD";
    let userId: string | undefined;
    try {
      const base = { ...(await requestContext({ ignoreCompanyCookie: opts.ignoreCompanyCookie })), requestId };
      userId = base.user.id;
      if (!can(base.user.roles, opts.permission))
        throw new BffError("permission_denied", "Your role does not allow this.", { permission: opts.permission });
      if (isWrite && !sameOrigin(req)) throw new BffError("permission_denied", "Cross-origin request refused.");

      const rawParams = (await segment.params) ?? {};
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(rawParams)) {
        const r = Uuid.safeParse(v);
        if (!r.success)
          throw new BffError("validation_error", `${k} must be a UUID`, { errors: { [k]: ["must be a UUID"] } });
        params[k] = r.data;
      }

      let query: unknown = undefined;
      if (opts.query) {
        const r = opts.query.safeParse(Object.fromEntries(req.nextUrl.searchParams));
        if (!r.success) throw validationError(r.error, "query");
        query = r.data;
      }

      let body: unknown = undefined;
      if (opts.body) {
        const r = opts.body.safeParse(await readJson(req));
        if (!r.success) throw validationError(r.error, "body");
        body = r.data;
      }

      let idempotencyKey: string | undefined;
      if (isWrite) {
        const browserKey = req.headers.get("idempotency-key");
        if (!browserKey || !Uuid.safeParse(browserKey).success) {
          throw new BffError("validation_error", "Idempotency-Key header must be a UUID", {
            errors: { "Idempotency-Key": ["must be a UUID"] },
          });
        }
        idempotencyKey = derivedIdempotencyKey(base.user.id, browserKey);
      }

      const companyMode = opts.company ?? "required";
      if (companyMode === "required" && !base.company)
        throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
      const upstream: { replayed?: boolean } = {};
      const call: CallContext = {
        requestId,
        idempotencyKey,
        outcome: upstream,
        ...(companyMode === "required" && base.company ? { companyId: base.company.id } : {}),
      };

      const audit: RouteContext<unknown, unknown>["audit"] = {};
      const ctx = {
        ...base,
        upstream,
        requestId,
        params,
        query,
        body,
        call,
        idempotencyKey,
        audit,
        request: req,
      } as RouteContext<Out<Q>, Out<B>>;
      const result = await handler(ctx);

      if (opts.audit) {
        const objectId =
          audit.objectId ??
          (typeof result === "object" && result !== null && "id" in result && typeof result.id === "string"
            ? result.id
            : (params.id ?? null));
        const bodyCompany =
          typeof body === "object" && body !== null && "company_id" in body && typeof body.company_id === "string"
            ? body.company_id
            : null;
        await appendAudit(await dashboardDb(), {
          userId: base.user.id,
          userEmail: base.user.email,
          action: opts.audit.action,
          objectType: opts.audit.objectType,
          objectId,
          companyId: audit.companyId ?? call.companyId ?? bodyCompany,
          idempotencyKey: idempotencyKey ?? null,
          // A retry answered from the API's idempotency store changed nothing: logged, but not as a new success.
          outcome: upstream.replayed ? "replayed" : "success",
          requestId,
          ...(audit.details ? { details: audit.details } : {}),
        });
      }
      // A handler may answer with its own Response (a streamed CSV export); it still gets the request id.
      if (result instanceof Response) {
        result.headers.set("X-Request-ID", requestId);
        logger.info(
          {
            requestId,
            method: req.method,
            path: req.nextUrl.pathname,
            status: result.status,
            ms: Date.now() - started,
            userId,
          },
          "bff request",
        );
        return result as NextResponse;
      }
      const status = result === undefined ? 204 : (opts.status ?? 200);
      logger.info(
        { requestId, method: req.method, path: req.nextUrl.pathname, status, ms: Date.now() - started, userId },
        "bff request",
      );
      return json(result, status, requestId);
    } catch (err) {
      const mapped = toBffError(err, requestId);
      const entry = {
        requestId,
        method: req.method,
        path: req.nextUrl.pathname,
        status: mapped.status,
        ms: Date.now() - started,
        userId,
      };
      if (mapped.log) logger.error({ ...entry, err }, "bff request failed");
      else logger.info(entry, "bff request");
      return json(mapped.body, mapped.status, requestId, mapped.headers);
    }
  };
}
