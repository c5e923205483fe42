/**
 * The kinds of read (GET) route the areas declare again and again, each as one call: an item by its path id, an
 * answer to a parsed query, and one page of a Treasury API list, below an item or not, answered as a BFF page
 * (docs/architecture.md#the-bff-declared-per-area). Built on `declareRoute` (lib/bff/route.ts).
 */
import "server-only";
import type { z } from "zod";
import type { Permission } from "@/lib/auth/roles";
import type { Endpoint } from "@/lib/bff/endpoint";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { declareRoute, IdParams, type RouteContext } from "@/lib/bff/route";
import type { CallContext, Page, PageParams } from "@/lib/treasury-client";

/** Who may read (else 403 naming the permission) and how the upstream call is scoped (`declareRoute`'s `company`). */
export interface ReadAccess {
  permission: Permission;
  company?: "required" | "none";
}

/** A read's query schema: a zod object (keys it does not name are dropped; a bad value is a 400 naming the field). */
type QuerySchema = z.ZodType<Record<string, unknown> & { page?: number; page_size?: number; limit?: number }>;

/** The access of a read with a query: `ReadAccess` and the query's schema. */
export type QueryAccess<Q extends QuerySchema> = ReadAccess & { query: Q };

/** `ctx.query`, parsed with the route's query schema `Q` (a generic schema leaves `declareRoute`'s type of it unresolved). */
const parsed = <Q extends QuerySchema>(query: unknown) => query as z.output<Q>;

/** GET of item `{id}` (a UUID, else 400 `id must be a UUID`): `read(ctx, id)`'s answer. */
export function readById<E extends Endpoint>(
  endpoint: E,
  access: ReadAccess,
  read: (ctx: RouteContext<{ id: string }, undefined, undefined>, id: string) => Promise<unknown>,
) {
  return declareRoute(endpoint, { ...access, params: IdParams }, (ctx) => read(ctx, ctx.params.id));
}

/** GET with the query `access.query` parses: `read(ctx, query)`'s answer. */
export function readByQuery<E extends Endpoint, Q extends QuerySchema>(
  endpoint: E,
  access: QueryAccess<Q>,
  read: (ctx: RouteContext<undefined, unknown, undefined>, query: z.output<Q>) => Promise<unknown>,
) {
  return declareRoute(endpoint, access, (ctx) => read(ctx, parsed<Q>(ctx.query)));
}

/**
 * GET of one page of a Treasury API list: `list(ctx.read, filters)`, the filters the parsed query with its paging
 * (`clientFilters`), answered as a BFF page (`toBffPage`).
 */
export function apiPage<E extends Endpoint, Q extends QuerySchema, T>(
  endpoint: E,
  access: QueryAccess<Q>,
  list: (read: CallContext, filters: z.output<Q> & PageParams) => Promise<Page<T>>,
) {
  return declareRoute(endpoint, access, async (ctx) =>
    toBffPage(await list(ctx.read, clientFilters(parsed<Q>(ctx.query)))),
  );
}

/** `apiPage` of a list below item `{id}` (a UUID, else 400): `list(ctx.read, id, filters)`. */
export function apiPageById<E extends Endpoint, Q extends QuerySchema, T>(
  endpoint: E,
  access: QueryAccess<Q>,
  list: (read: CallContext, id: string, filters: z.output<Q> & PageParams) => Promise<Page<T>>,
) {
  return declareRoute(endpoint, { ...access, params: IdParams }, async (ctx) =>
    toBffPage(await list(ctx.read, ctx.params.id, clientFilters(parsed<Q>(ctx.query)))),
  );
}
