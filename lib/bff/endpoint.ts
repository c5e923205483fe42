/**
 * A BFF endpoint as both sides of the browser's wire see it: its method and its path, written once per area in
 * `lib/bff/areas/<area>/endpoints.ts` (docs/architecture.md#the-bff-declared-per-area). The server binds a handler to
 * it (`declareRoute`, lib/bff/route.ts) and the route file exports that declaration; the browser derives the URL
 * (`endpointUrl`), its fetch (`callBff`, components/data/bff-fetch.ts) and its React Query key (`endpointKey`) from
 * the same object, so no URL or query key is written by hand. Isomorphic: no server import.
 */

/** The HTTP methods a BFF route answers. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The names of a path's `[name]` segments, e.g. `"id"` for `/api/admin/users/[id]`. */
type ParamNames<P extends string> = P extends `${string}[${infer N}]${infer Rest}` ? N | ParamNames<Rest> : never;

/** The path parameters an endpoint's URL needs: `{ id: string }` for `/api/admin/users/[id]`, `{}` for none. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/** Query values as the URL carries them; `undefined`, `null` and `""` are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined | null>;

/**
 * One endpoint: `method` and `path` (a Next.js route path under `/api`, `[name]` for a path parameter). `R` is the
 * JSON body of a successful answer, a type only (`endpoint(...).returns<R>()`).
 */
export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string, R = unknown> {
  readonly method: M;
  readonly path: P;
  /** Narrows the answer's type (no runtime effect). */
  returns<T>(): Endpoint<M, P, T>;
  /** Phantom: the answer's type. Never set. */
  readonly response?: R;
}

/** Declares an endpoint: `endpoint("GET", "/api/admin/users").returns<{ items: AdminUser[] }>()`. */
export function endpoint<M extends HttpMethod, P extends `/api/${string}`>(method: M, path: P): Endpoint<M, P> {
  const e: Endpoint<M, P> = {
    method,
    path,
    returns<T>() {
      return e as unknown as Endpoint<M, P, T>;
    },
  };
  return e;
}

/** The query string of `query` (`?a=1&b=x`, or `""` when every value is empty), keys in the order given. */
export function queryString(query: QueryValues | undefined): string {
  if (!query) return "";
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : "";
}

/**
 * The URL of one call: each `[name]` segment replaced by `params[name]` (URI-encoded), then the query string.
 * @throws Error when a parameter the path names is missing or empty (a programming error, never user input).
 */
export function endpointUrl<P extends string>(e: Endpoint<HttpMethod, P>, params?: PathParams<P>, query?: QueryValues) {
  const values = (params ?? {}) as Record<string, string>;
  const path = e.path.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined || v === "") throw new Error(`${e.path}: the path parameter ${name} is missing`);
    return encodeURIComponent(v);
  });
  return path + queryString(query);
}

/**
 * The React Query key of an endpoint's data: `[path, scope?]`. `scope` holds what the answer depends on (path
 * parameters, query, the selected company); TanStack matches keys by prefix and objects partially, so
 * `endpointKey(e)` invalidates every query of the endpoint and `endpointKey(e, { company })` those of one company.
 */
export function endpointKey(e: Endpoint, scope?: Record<string, unknown>): readonly unknown[] {
  return scope === undefined ? [e.path] : [e.path, scope];
}
