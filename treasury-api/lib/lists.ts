/**
 * List responses in the caller's form (docs/treasury-api.md#list-conventions; docs/architecture.md#one-service-both-forms):
 * Form A a bare array cut at `limit`; Form B the pagination envelope with
 * absolute `next` / `previous` URLs (null when absent).
 */
import { z } from "zod";
import type { RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { LimitParam, PAGE_SIZE_DEFAULT, PageParam, PageSizeParam, type Envelope } from "@treasury/contract/pagination";
import type { AppEnv, AppRouteHandler, RouteContext } from "./context";
import { ApiError } from "./errors";

/** Query fields every list route accepts; which ones apply depends on the token's form. */
export const pagingQuery = {
  page: PageParam.optional().meta({ description: "Form B: page number, 1-indexed" }),
  page_size: PageSizeParam.optional().meta({ description: "Form B: rows per page, default 100, max 1000" }),
  limit: LimitParam.optional().meta({
    description:
      "Form A: most rows returned, default 100, max 1000. Form B accepts it as page_size when page_size is absent.",
  }),
};

/** The rows and offset of one page of a list, resolved for the caller's form. */
export interface Paging {
  limit: number;
  offset: number;
  page: number;
  pageSize: number;
  /** Form B needs the total count for the envelope. */
  needsCount: boolean;
}

/** Resolves the paging of a list request for the caller's form. */
export function resolvePaging(c: Context<AppEnv>, q: { page?: number; page_size?: number; limit?: number }): Paging {
  const caller = c.get("caller");
  if (caller?.form === "A") {
    for (const field of ["page", "page_size"] as const) {
      if (q[field] !== undefined)
        throw new ApiError("validation_error", `${field} is a Form B parameter; Form A lists take limit`, {
          errors: { [field]: ["is not accepted with a Form A token; use limit"] },
        });
    }
    const limit = q.limit ?? PAGE_SIZE_DEFAULT;
    return { limit, offset: 0, page: 1, pageSize: limit, needsCount: false };
  }
  const pageSize = q.page_size ?? q.limit ?? PAGE_SIZE_DEFAULT;
  const page = q.page ?? 1;
  return { limit: pageSize, offset: (page - 1) * pageSize, page, pageSize, needsCount: true };
}

/** The first value of a comma-separated forwarding header (the proxy nearest the client), trimmed. */
const firstValue = (header: string | undefined): string | undefined => header?.split(",")[0]?.trim() || undefined;

/**
 * The address the caller used for this request. With `trustProxy` the
 * reverse proxy's `X-Forwarded-Proto` (http or https) and `X-Forwarded-Host`
 * replace the request's own; the API's internal port is then dropped (a
 * port, if any, is the one X-Forwarded-Host names). Without it those headers
 * are ignored: anyone can send them.
 */
export function publicRequestUrl(c: Context<AppEnv>): URL {
  const url = new URL(c.req.url);
  if (!c.get("config").trustProxy) return url;
  const forwardedProto = firstValue(c.req.header("x-forwarded-proto"))?.toLowerCase();
  const proto = forwardedProto === "http" || forwardedProto === "https" ? forwardedProto : null;
  const host = firstValue(c.req.header("x-forwarded-host"));
  let forwardedHost: URL | null = null;
  try {
    // An authority alone (name or address, optional port); with a path, query, user info or an invalid name it is
    // ignored.
    const parsed = host ? new URL(`${proto ?? url.protocol.replace(":", "")}://${host}`) : null;
    if (parsed && parsed.pathname === "/" && !parsed.search && !parsed.hash && !parsed.username && !parsed.password)
      forwardedHost = parsed;
  } catch {
    forwardedHost = null;
  }
  if (!proto && !forwardedHost) return url;
  url.port = "";
  if (proto) url.protocol = `${proto}:`;
  if (forwardedHost) {
    url.hostname = forwardedHost.hostname;
    url.port = forwardedHost.port;
  }
  return url;
}

function pageUrl(c: Context<AppEnv>, page: number): string {
  const url = publicRequestUrl(c);
  url.searchParams.set("page", String(page));
  return url.toString();
}

/** Builds the list body: an array (Form A) or an envelope (Form B, `count` required). */
export function listBody<T>(c: Context<AppEnv>, paging: Paging, rows: T[], count: number): T[] | Envelope<T> {
  if (!paging.needsCount) return rows;
  return { ...envelopeHead(c, paging, count), results: rows };
}

/** The Form B envelope without its results, keys in the envelope's order. */
function envelopeHead(c: Context<AppEnv>, paging: Paging, count: number): Omit<Envelope<unknown>, "results"> {
  const totalPages = Math.ceil(count / paging.pageSize);
  return {
    count,
    total_pages: totalPages,
    page: paging.page,
    page_size: paging.pageSize,
    next: paging.page < totalPages ? pageUrl(c, paging.page + 1) : null,
    previous: paging.page > 1 ? pageUrl(c, Math.min(paging.page - 1, Math.max(totalPages, 1))) : null,
  };
}

/**
 * `listBody` as JSON text around rows that are already JSON (`rowsJson`: a JSON array, e.g. built by the database):
 * byte-for-byte `JSON.stringify(listBody(c, paging, JSON.parse(rowsJson), count))`, without parsing the rows.
 */
export function listBodyJson(c: Context<AppEnv>, paging: Paging, rowsJson: string, count: number): string {
  if (!paging.needsCount) return rowsJson;
  const head = JSON.stringify(envelopeHead(c, paging, count));
  return `${head.slice(0, -1)},"results":${rowsJson}}`;
}

/** OpenAPI response schema of a list of `item` in either form. */
export function listResponse<T extends z.ZodType>(item: T, description: string) {
  return {
    description: `${description}. Form A: a bare JSON array. Form B: the pagination envelope.`,
    content: {
      "application/json": {
        schema: z.union([
          z.array(item),
          z.object({
            count: z.number().int(),
            total_pages: z.number().int(),
            page: z.number().int(),
            page_size: z.number().int(),
            next: z.string().nullable(),
            previous: z.string().nullable(),
            results: z.array(item),
          }),
        ]),
      },
    },
  };
}

/** 400 when from_date is after to_date. */
export function checkDateRange(q: { from_date?: string; to_date?: string }): void {
  if (q.from_date && q.to_date && q.from_date > q.to_date) {
    throw new ApiError("validation_error", "from_date must not be after to_date", {
      errors: { from_date: ["must not be after to_date"] },
    });
  }
}

/** A route that answers a list: a query schema, and a 200 of `listResponse(item)`. */
type ListRoute = RouteConfig & {
  request: { query: z.ZodType };
  responses: { 200: { content: { "application/json": { schema: z.ZodType } } } };
};
/** The parsed query of list route `R`. */
type ListQuery<R extends ListRoute> = z.output<R["request"]["query"]>;
/** The row type of list route `R`, from its response schema. */
type ListItem<R extends ListRoute> = Extract<
  z.output<R["responses"][200]["content"]["application/json"]["schema"]>,
  unknown[]
>[number];

/** One page of rows and, for Form B, the total count (0 when not counted). */
export interface ListPage<T> {
  rows: T[];
  count: number;
}

/**
 * The handler of a list route: reads the query, checks the date range
 * (400 when from_date is after to_date), runs `parent` (the lookup of the
 * object the list belongs to, so that a missing account or batch answers 404
 * before a paging error), resolves the paging for the caller's form, loads
 * the page with `load` and answers in the caller's form (`listBody`).
 * `route` is taken for its type only.
 */
export function listHandler<R extends ListRoute, P = undefined>(
  route: R,
  spec: {
    parent?: (c: RouteContext<R>, q: ListQuery<R>) => Promise<P>;
    load: (c: RouteContext<R>, q: ListQuery<R>, paging: Paging, parent: P) => Promise<ListPage<ListItem<R>>>;
  },
): AppRouteHandler<R> {
  void route;
  const handler = async (c: RouteContext<R>) => {
    const { q, paging, parent } = await listRequest(c, spec.parent);
    const { rows, count } = await spec.load(c, q, paging, parent);
    return c.json(listBody(c as Context<AppEnv>, paging, rows, count), 200);
  };
  return handler as unknown as AppRouteHandler<R>;
}

/** The query, parent and paging of a list request, checked in `listHandler`'s order. */
async function listRequest<R extends ListRoute, P>(
  c: RouteContext<R>,
  parentOf: ((c: RouteContext<R>, q: ListQuery<R>) => Promise<P>) | undefined,
): Promise<{ q: ListQuery<R>; paging: Paging; parent: P }> {
  const q = (c.req.valid as (target: "query") => ListQuery<R>)("query");
  checkDateRange(q as { from_date?: string; to_date?: string });
  const parent = parentOf ? await parentOf(c, q) : (undefined as P);
  const paging = resolvePaging(c as Context<AppEnv>, q as { page?: number; page_size?: number; limit?: number });
  return { q, paging, parent };
}

/**
 * `listHandler` for a list whose page the database serialises (`load` answers the rows as one JSON array text):
 * the same checks, status, Content-Type and bytes as `listHandler` with the parsed rows, without building,
 * parsing or stringifying a row in Node (docs/architecture.md#list-responses).
 */
export function jsonListHandler<R extends ListRoute, P = undefined>(
  route: R,
  spec: {
    parent?: (c: RouteContext<R>, q: ListQuery<R>) => Promise<P>;
    load: (c: RouteContext<R>, q: ListQuery<R>, paging: Paging, parent: P) => Promise<{ json: string; count: number }>;
  },
): AppRouteHandler<R> {
  void route;
  const handler = async (c: RouteContext<R>) => {
    const { q, paging, parent } = await listRequest(c, spec.parent);
    const { json, count } = await spec.load(c, q, paging, parent);
    // Encoded to UTF-8 once: the server then writes the bytes as they are and takes the Content-Length from them,
    // where a string body (390 KB for 1,000 rows) is measured and then encoded again (docs/architecture.md#list-responses).
    const body = Buffer.from(listBodyJson(c as Context<AppEnv>, paging, json, count), "utf8");
    return c.body(body, 200, { "Content-Type": "application/json" });
  };
  return handler as unknown as AppRouteHandler<R>;
}
