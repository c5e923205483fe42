/**
 * The treasury-api Hono application (docs/treasury-api.md; docs/architecture.md#decisions-the-spec-leaves-open): every route is
 * mounted under `/public`, answers with and without a trailing slash, and is
 * described in `GET /public/openapi.json` (OpenAPI 3.1, version 2026-01-10),
 * generated from the same zod declarations that validate requests.
 * `/healthz`, `/readyz` and `/metrics` (middleware/metrics.ts) live outside `/public`.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { bodyLimit } from "hono/body-limit";
import type { Context, MiddlewareHandler } from "hono";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { API_VERSION } from "@treasury/contract/common";
import { STATEMENT_MAX_BODY_BYTES } from "@treasury/contract/statements";
import { withOpenApiMetadata } from "./lib/openapi-metadata";
import { queryRows, type Database, type Db } from "./db/client";
import { resolveConfig, type AppConfig } from "./config";
import type { AppEnv } from "./lib/context";
import { ApiError } from "./lib/errors";
import { newId } from "./lib/secrets";
import { validationError } from "./lib/validation";
import { gate } from "./middleware/gate";
import { metricsEndpoint, requestMetrics } from "./middleware/metrics";
import { registerRoutes } from "./routes";
import { OPENAPI_DESCRIPTION } from "./openapi-description";

export interface AppOptions {
  database: Database;
  config?: Partial<AppConfig>;
  logger?: Logger | null;
}

export type TreasuryApp = OpenAPIHono<AppEnv>;

function errorJson(c: Context<AppEnv>, err: ApiError): Response {
  const headers = new Headers({
    "content-type": "application/json; charset=UTF-8",
    ...(c.get("responseHeaders") ?? {}),
    ...err.headers,
  });
  headers.set("X-Request-ID", c.get("requestId") ?? "");
  return new Response(JSON.stringify({ error: err.code, message: err.message, details: err.details }), {
    status: err.status,
    headers,
  });
}

/** Maps anything thrown to the API's error body; unknown errors become a logged 500 without detail. */
function toApiError(c: Context<AppEnv>, err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 413) return new ApiError("payload_too_large", "The request body is too large");
    if (err.status === 415)
      return new ApiError(
        "unsupported_media_type",
        "The request body must be JSON with Content-Type: application/json",
      );
    if (err.status === 400)
      return new ApiError("validation_error", err.message || "Malformed request", {
        errors: { body: [err.message || "is malformed"] },
      });
    if (err.status === 401) return new ApiError("authentication_failed", err.message || "Authentication failed");
  }
  c.get("logger")?.error({ err, requestId: c.get("requestId") }, "unhandled error");
  return new ApiError(
    "internal_error",
    `An internal error occurred; quote request id ${c.get("requestId")} to support`,
  );
}

const REQUEST_ID_RE = /^[\w.:-]{1,128}$/;

/**
 * The first middleware of every request: a request id (the caller's `X-Request-ID` when well-formed, else a new
 * one), the per-request context (database, config, logger, no caller yet), then after the handler the
 * `X-Request-ID` and queued response headers, and one access-log line.
 */
function requestContext(
  db: Db,
  config: ReturnType<typeof resolveConfig>,
  logger: Logger | null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : newId();
    c.set("requestId", requestId);
    c.set("db", db);
    c.set("config", config);
    c.set("logger", logger);
    c.set("caller", null);
    c.set("responseHeaders", {});
    await next();
    c.res.headers.set("X-Request-ID", requestId);
    for (const [k, v] of Object.entries(c.get("responseHeaders"))) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
    logger?.info({
      requestId,
      method: c.req.method,
      path: c.req.routePath,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      client: c.get("caller")?.clientName,
    });
  };
}

/**
 * The operator routes outside /public (not in the OpenAPI document): `/metrics` (Prometheus; loopback or
 * METRICS_TOKEN), `/healthz`, and `/readyz` (200 with the applied migrations, 503 when the database does not answer).
 */
function operatorRoutes(app: TreasuryApp, db: Db): void {
  app.get("/metrics", metricsEndpoint(db));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from drizzle."__drizzle_migrations"`,
      );
      return c.json({ status: "ready", migrations: Number(row?.n ?? 0) });
    } catch {
      return c.json({ status: "unavailable" }, 503);
    }
  });
}

/**
 * The request body limit by route: config.maxBodyBytes, config.maxBatchBodyBytes for batch creation,
 * STATEMENT_MAX_BODY_BYTES for statement uploads. @throws ApiError payload_too_large (413) over the limit
 */
function bodyLimits(config: ReturnType<typeof resolveConfig>): MiddlewareHandler<AppEnv> {
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError("payload_too_large", `The request body is larger than ${maxSize} bytes`);
      },
    });
  const defaultLimit = limitOf(config.maxBodyBytes);
  // Batch creation alone may carry 10,000 instructions, which do not fit in 1 MiB (config.maxBatchBodyBytes).
  const batchLimit = limitOf(config.maxBatchBodyBytes);
  // Statement uploads carry whole bank files (10 MB and more, several per request).
  const statementLimit = limitOf(STATEMENT_MAX_BODY_BYTES);
  return (c, next) => {
    // A GET or HEAD has no body to limit (the adapter gives it none); asking for one would make @hono/node-server build
    // a full Request per read, ~0.3 ms of a 1,000-row list's CPU (docs/architecture.md#list-responses).
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (c.req.method !== "POST") return defaultLimit(c, next);
    if (/\/payments\/batches\/?$/.test(c.req.path)) return batchLimit(c, next);
    return /\/statements\/?$/.test(c.req.path) ? statementLimit(c, next) : defaultLimit(c, next);
  };
}

/**
 * Registers the bearer security scheme and serves `/openapi.json`: the generated document plus the metadata
 * integrators' tools read (operationIds, tags, security schemes, license).
 */
function serveOpenApi(api: OpenAPIHono<AppEnv>): void {
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "Opaque access token from /auth/token/ (Form B) or /auth/tenant-token (Form A)",
  });
  const docConfig = {
    openapi: "3.1.0",
    info: {
      title: "Treasury Public API (local implementation)",
      version: API_VERSION,
      description: OPENAPI_DESCRIPTION,
    },
    servers: [{ url: "/public", description: "local base address" }],
  };
  api.get("/openapi.json", (c) => c.json(withOpenApiMetadata(api.getOpenAPI31Document(docConfig))));
}

/** The answer for an unknown route: 405 method_not_allowed with `Allow` when the path exists, else 404 not_found. */
function notFound(app: TreasuryApp, c: Context<AppEnv>): Response | Promise<Response> {
  const allowed = allowedMethods(app, c.req.path);
  if (allowed.length > 0 && !allowed.includes(c.req.method)) {
    return errorJson(
      c,
      new ApiError(
        "method_not_allowed",
        `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(", ")}`,
        { allowed },
        { Allow: allowed.join(", ") },
      ),
    );
  }
  return errorJson(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`));
}

/** Builds the app around an open database. Does not start workers or listen. */
export function createApp(opts: AppOptions): TreasuryApp {
  const config = resolveConfig(opts.config);
  const logger = opts.logger ?? null;
  const db = opts.database.db;

  const app = new OpenAPIHono<AppEnv>({ strict: false });
  const api = new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });

  app.use("*", requestMetrics());
  app.use("*", requestContext(db, config, logger));
  operatorRoutes(app, db);
  api.use("*", bodyLimits(config));
  api.use("*", gate());
  // The trivial JSON route benchmarks compare against (the floor), through the same gate as every API call.
  api.get("/ping", (c) => c.json({ pong: true }));

  registerRoutes(api);
  serveOpenApi(api);

  app.route("/public", api);

  app.onError((err, c) => errorJson(c, toApiError(c, err)));
  api.onError((err, c) => errorJson(c, toApiError(c, err)));
  app.notFound((c) => notFound(app, c));
  return app;
}

/** Methods registered for a concrete path (for 405 answers). */
function allowedMethods(app: TreasuryApp, path: string): string[] {
  const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const methods = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    const re = new RegExp(
      `^${r.path
        .replace(/\/+$/, "")
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\/:[^/]+/g, "/[^/]+")}$`,
    );
    if (re.test(normalized)) methods.add(r.method);
  }
  return [...methods];
}
