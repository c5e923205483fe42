/**
 * List responses in the caller's form (spec §4 conventions, §8; DESIGN.md):
 * Form A a bare array cut at `limit`; Form B the pagination envelope with
 * absolute `next` / `previous` URLs (null when absent).
 */
import { z } from "zod";
import type { Context } from "hono";
import { IsoDate } from "../../lib/contract/common";
import { LimitParam, PAGE_SIZE_DEFAULT, PageParam, PageSizeParam, type Envelope } from "../../lib/contract/pagination";
import type { AppEnv } from "./context";
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
    // An authority alone (name or address, optional port); with a path, query, user info or an invalid name it is ignored.
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
  const totalPages = Math.ceil(count / paging.pageSize);
  return {
    count,
    total_pages: totalPages,
    page: paging.page,
    page_size: paging.pageSize,
    next: paging.page < totalPages ? pageUrl(c, paging.page + 1) : null,
    previous: paging.page > 1 ? pageUrl(c, Math.min(paging.page - 1, Math.max(totalPages, 1))) : null,
    results: rows,
  };
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

/** The date-range filters shared by most lists (inclusive dates). */
export const dateRangeQuery = {
  from_date: IsoDate.optional().meta({ description: "Inclusive start date YYYY-MM-DD" }),
  to_date: IsoDate.optional().meta({ description: "Inclusive end date YYYY-MM-DD" }),
};

/** 400 when from_date is after to_date. */
export function checkDateRange(q: { from_date?: string; to_date?: string }): void {
  if (q.from_date && q.to_date && q.from_date > q.to_date) {
    throw new ApiError("validation_error", "from_date must not be after to_date", {
      errors: { from_date: ["must not be after to_date"] },
    });
  }
}
