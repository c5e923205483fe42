/**
 * Browser-side calls to the BFF. Errors arrive in the BFF's one shape
 * `{ error, message, details, request_id }` and are thrown as
 * `BffRequestError` so that views can show the message and the request id.
 */
import { errorBodyFields, readLenientJson } from "@/lib/http/error-body";

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

/** Builds a query string from defined, non-empty values. */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : "";
}

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
