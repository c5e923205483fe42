/**
 * The request machinery the Treasury client's method groups share: one token
 * manager and one HTTP core (retries, timeouts, headers) per client, and the
 * typed `list` / `get` / `write` helpers the endpoint methods are written with.
 * With `shared` set, every GET goes through the upstream cache
 * (./upstream-cache.ts: TTL per resource, single-flight) and every write
 * invalidates what it changes; `ctx.cache: "no-store"` skips the cached value
 * for a read that must be fresh.
 *
 * Server-only: it holds the client secret and the access tokens.
 */
import "server-only";
import { z } from "zod";
import { PAGE_SIZE_DEFAULT, listOf } from "@treasury/contract";
import { TreasuryTransportError } from "./errors";
import { HttpCore, type CallContext, type HttpRequest, type QueryValue } from "./http";
import { FETCH_NEXT, toPage, type Page, type RawList } from "./pagination";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import type { SharedLoadOptions } from "./store/shared-load";
import { clientNamespace, type SharedStore } from "./store/shared-store";
import type { BudgetStore } from "./budget-store";
import type { RateBudgetPolicy } from "./rate-budget";
import { TokenManager } from "./token-manager";
import { UpstreamCache, type CacheEvent } from "./upstream-cache";

declare module "./http" {
  interface CallContext {
    /** `"no-store"`: this read skips the upstream cache's value (its answer is stored for the next reader). */
    cache?: "no-store";
  }
}

/** State shared through a store (memory or Redis): the upstream cache of GETs and the OAuth token. */
export interface SharedStateConfig {
  store: SharedStore;
  /** Cache GETs (default true); false shares only the token. */
  cacheReads?: boolean;
  /** Called once per cached read with its outcome (metrics). */
  onCacheEvent?: (resource: string, event: CacheEvent) => void;
  /** Cross-instance single-flight timing. */
  singleFlight?: SharedLoadOptions;
}

export interface TreasuryClientConfig {
  /** Base address ending in `/public`, e.g. `http://127.0.0.1:4010/public`. */
  baseUrl: string;
  form: "A" | "B";
  clientId: string;
  clientSecret: string;
  /** Form A: the tenant every call is bound to (`X-Tenant-ID`). */
  tenantId?: string;
  scopes: readonly string[];
  /** Per attempt, milliseconds (default 15 000). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRetry?: (info: { method: string; url: string; attempt: number; reason: string; waitMs: number }) => void;
  /** Absent: no upstream cache, one token per client (tests of the bare client). */
  shared?: SharedStateConfig;
  /** Where the rate budget is kept (default in memory; a shared store spreads it over instances). */
  budget?: BudgetStore;
  /** Reserve and bounded wait of background calls. */
  rateBudget?: Partial<RateBudgetPolicy>;
  onYield?: (info: { method: string; url: string; waitMs: number; remaining: number; limit: number }) => void;
}

export interface PageParams {
  /** Form B page (1-indexed); ignored by Form A. */
  page?: number;
  /** Rows per page: Form B `page_size`, Form A `limit` (1..1000). */
  pageSize?: number;
}

/** Write context: the Idempotency-Key is required on every write (docs/treasury-api.md#list-conventions). */
export type WriteContext = CallContext & { idempotencyKey: string };

/** The query-string values of `q` for the keys of `schema` (strings, numbers and booleans only). */
export function pick(
  q: object | undefined,
  schema: z.ZodObject,
  extra: readonly string[] = [],
): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  if (!q) return out;
  for (const k of [...Object.keys(schema.shape), ...extra]) {
    const v = (q as Record<string, unknown>)[k];
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

/** Percent-encodes one path segment (an id). */
export const enc = encodeURIComponent;

/** The token manager and HTTP core of one client, built from its configuration. */
function createCore(config: TreasuryClientConfig) {
  const fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
  const now = config.now ?? Date.now;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const namespace = clientNamespace({ ...config, baseUrl });
  const tokens = new TokenManager({
    baseUrl,
    form: config.form,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    tenantId: config.tenantId,
    scopes: config.scopes,
    timeoutMs,
    fetch: fetchImpl,
    now,
    store: config.shared?.store,
    namespace,
  });
  const http = new HttpCore({
    baseUrl,
    form: config.form,
    tenantId: config.tenantId,
    timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, ...config.retry },
    fetch: fetchImpl,
    sleep: config.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: config.random ?? Math.random,
    now,
    tokens,
    onRetry: config.onRetry,
    budget: config.budget,
    rateBudget: config.rateBudget,
    onYield: config.onYield,
  });
  const shared = config.shared;
  const cache =
    shared && shared.cacheReads !== false
      ? new UpstreamCache({
          store: shared.store,
          namespace,
          basePath: new URL(baseUrl + "/").pathname,
          onEvent: shared.onCacheEvent,
          singleFlight: shared.singleFlight,
        })
      : null;
  return { tokens, http, cache };
}

/** `p`, or a rejection as soon as `signal` aborts (the shared call itself goes on for the others). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const aborted = () => new TreasuryTransportError("aborted", "The request was cancelled");
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * A client's reads and writes through its upstream cache (docs/treasury-api.md#endpoints): `read` sends one GET
 * and parses its body, from the cache when there is one; `sendWrite` sends a write and then makes stale what it
 * may have changed.
 * @throws as `HttpCore.send` (TreasuryApiError, TreasuryTransportError, TreasuryResponseError); `read` also a
 *   TreasuryTransportError "aborted" as soon as the caller's signal aborts.
 */
function cachedCalls(http: HttpCore, cache: UpstreamCache | null) {
  /** One GET's parsed body, through the upstream cache when there is one. */
  async function read<S extends z.ZodType>(req: HttpRequest<S>, ctx: CallContext): Promise<z.output<S>> {
    if (!cache) return (await http.send(req, ctx)).data as z.output<S>;
    // The shared call is not cancelled by one caller's signal; each caller stops waiting on its own.
    const load = async () => (await http.send(req, { ...ctx, signal: undefined })).data as z.output<S>;
    const url = http.resolve(req.path, req.query);
    return abortable(cache.read(url, ctx.companyId, load, ctx.cache === "no-store"), ctx.signal);
  }

  /** Sends a write, then makes stale what it may have changed (also when it failed: it may have happened). */
  async function sendWrite<S extends z.ZodType>(req: HttpRequest<S>, ctx: CallContext) {
    try {
      return await http.send(req, ctx);
    } finally {
      await cache?.invalidate(req.method, http.resolve(req.path), ctx.companyId);
    }
  }
  return { read, sendWrite };
}

/** One GET's parsed body (`cachedCalls`' `read`). */
type Read = <S extends z.ZodType>(req: HttpRequest<S>, ctx: CallContext) => Promise<z.output<S>>;

/**
 * `list` of a client of `form` (docs/treasury-api.md#list-conventions): one page of a list path as a `Page`, its
 * `next` link followed by `iterateItems` with the same company, request id, signal, cache and priority.
 * @throws as `read`; TreasuryResponseError when a `next` link points outside the API.
 */
function pagedList(form: "A" | "B", read: Read) {
  /** Page-size query parameters of the configured form. */
  function pagingQuery(p: PageParams | undefined): Record<string, QueryValue> {
    if (form === "A") return { limit: p?.pageSize };
    return { page: p?.page, page_size: p?.pageSize };
  }

  async function list<I extends z.ZodType>(
    path: string,
    item: I,
    filters: Record<string, QueryValue>,
    paging: PageParams | undefined,
    ctx: CallContext,
  ): Promise<Page<z.output<I>>> {
    const schema = listOf(item);
    const data = await read({ method: "GET", path, query: { ...filters, ...pagingQuery(paging) }, schema }, ctx);
    return withNext(toPage(data as RawList<z.output<I>>, paging?.pageSize ?? PAGE_SIZE_DEFAULT), item, ctx);
  }

  function withNext<I extends z.ZodType>(page: Page<z.output<I>>, item: I, ctx: CallContext): Page<z.output<I>> {
    const next = page.next;
    if (next) {
      const readCtx: CallContext = {
        companyId: ctx.companyId,
        requestId: ctx.requestId,
        signal: ctx.signal,
        cache: ctx.cache,
        priority: ctx.priority,
      };
      page[FETCH_NEXT] = async () => {
        const data = await read({ method: "GET", path: next, schema: listOf(item) }, readCtx);
        return withNext(toPage(data as RawList<z.output<I>>, page.pageSize), item, readCtx);
      };
    }
    return page;
  }
  return list;
}

/**
 * The shared machinery of one client: `list` (a `Page` in either form, with `next` followed by
 * `iterateItems`), `get`, `write` (status and possibly empty body) and `writeOne` (a body is required).
 */
export function createTransport(config: TreasuryClientConfig) {
  const { tokens, http, cache } = createCore(config);
  const { read, sendWrite } = cachedCalls(http, cache);
  const list = pagedList(config.form, read);

  async function get<S extends z.ZodType>(
    path: string,
    schema: S,
    ctx: CallContext,
    query?: Record<string, QueryValue>,
  ): Promise<z.output<S>> {
    return read({ method: "GET", path, schema, query }, ctx);
  }

  async function write<S extends z.ZodType>(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    schema: S,
    ctx: WriteContext,
    body?: unknown,
    allowEmpty = false,
  ) {
    const r = await sendWrite({ method, path, schema, body, allowEmpty }, ctx);
    return { status: r.status, data: r.data as z.output<S> | null };
  }

  /** A write whose answer must have a body. */
  async function writeOne<S extends z.ZodType>(
    method: "POST" | "PATCH",
    path: string,
    schema: S,
    ctx: WriteContext,
    body?: unknown,
  ): Promise<z.output<S>> {
    const r = await write(method, path, schema, ctx, body);
    return r.data as z.output<S>;
  }

  return { form: config.form, tokens, http, cache, list, get, write, writeOne, sendWrite };
}

/** The machinery each method group of the client is built with. */
export type Transport = ReturnType<typeof createTransport>;
