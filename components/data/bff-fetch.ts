/**
 * Browser-side calls to the BFF. Errors arrive in the BFF's one shape
 * `{ error, message, details, request_id }` and are thrown as
 * `BffRequestError` so that views can show the message and the request id.
 */
import { errorBodyFields, readLenientJson } from "@/lib/http/error-body";
import {
  endpointKey,
  endpointUrl,
  queryString,
  type Endpoint,
  type HttpMethod,
  type PathParams,
  type QueryValues,
} from "@/lib/bff/endpoint";

export class BffRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly requestId: string | undefined;
  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown>,
    requestId: string | undefined,
  ) {
    super(message);
    this.name = "BffRequestError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
}

export interface BffFetchInit {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** One UUID per logical operation, kept across retries of that operation. */
  idempotencyKey?: string;
  /** Extra request headers (e.g. `X-Step-Up`, the passkey step-up proof of a decision). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Builds a query string from defined, non-empty values (the one rule: lib/bff/endpoint.ts `queryString`). */
export const toQueryString = queryString;

/** Calls a BFF route and returns its JSON body (undefined for 204). @throws BffRequestError. */
export async function bffFetch<T>(path: string, init: BffFetchInit = {}): Promise<T> {
  const headers: Record<string, string> = { ...init.headers, Accept: "application/json" };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.idempotencyKey) headers["Idempotency-Key"] = init.idempotencyKey;
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
    signal: init.signal,
  });
  if (res.status === 204) return undefined as T;
  const body = await readLenientJson(res);
  if (!res.ok) {
    const e = errorBodyFields(body);
    throw new BffRequestError(
      res.status,
      e.error ?? "error",
      e.message ?? `The request failed (${res.status}).`,
      e.details,
      e.requestId ?? res.headers.get("x-request-id") ?? undefined,
    );
  }
  return body as T;
}

/** What one call of an endpoint sends: path parameters, query, body and the write's headers. */
export interface CallInit<P extends string> extends Omit<BffFetchInit, "method"> {
  params?: PathParams<P>;
  query?: QueryValues;
}

/**
 * Calls a declared BFF endpoint (lib/bff/endpoint.ts): its method, its URL from `params` and `query`, and the JSON
 * answer typed as the endpoint declares (undefined for 204). docs/architecture.md#the-bff-declared-per-area.
 * @throws BffRequestError with the BFF's status, code, message and request id.
 */
export function callBff<P extends string, R, T = R>(e: Endpoint<HttpMethod, P, R>, init: CallInit<P> = {}): Promise<T> {
  const { params, query, ...rest } = init;
  return bffFetch<T>(endpointUrl(e, params, query), { ...rest, method: e.method });
}

/**
 * React Query options for reading a declared GET endpoint: the key is `endpointKey(e, { params, query, ...scope })`
 * (scope: what else the answer depends on, e.g. `{ company }`), the function `callBff` with the query's abort signal.
 */
export function endpointQuery<P extends string, R>(
  e: Endpoint<"GET", P, R>,
  input: { params?: PathParams<P>; query?: QueryValues; scope?: Record<string, unknown> } = {},
) {
  const { params, query, scope } = input;
  const keyScope = { ...scope, ...(params ? { params } : {}), ...(query ? { query } : {}) };
  return {
    queryKey: endpointKey(e, Object.keys(keyScope).length ? keyScope : undefined),
    queryFn: ({ signal }: { signal?: AbortSignal }) => callBff<P, R>(e, { params, query, signal }),
  };
}
