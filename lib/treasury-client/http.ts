/**
 * The HTTP core of the treasury client: headers per form, token, timeout,
 * 401 renewal with one repeat, retries of 429 / 5xx / network errors where
 * safe, and parsing of every answer with a contract schema (docs/treasury-api.md#endpoints, #authentication-and-scopes, #errors).
 */
import type { z } from "zod";
import { errorBodyFields, readLenientJson } from "../http/error-body";
import { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "./errors";
import { backoffDelayMs, isRetryableStatus, isSafeToRetry, rateLimitWaitMs, type RetryPolicy } from "./retry";
import type { TokenManager } from "./token-manager";
import { metrics } from "../server/metrics";
import { MemoryBudgetStore, type BudgetStore } from "./budget-store";
import {
  DEFAULT_RATE_BUDGET_POLICY,
  RateBudget,
  budgetFromHeaders,
  routeTemplate,
  type RateBudgetPolicy,
} from "./rate-budget";

/**
 * Who waits for a call: `interactive` (default) is a page a person is loading; `background` is a bulk or fan-out
 * read (account enrichment, CSV export, search across pages, cross-company fan-out) that waits for the next
 * rate-limit window when the budget is below the reserve, so the budget left goes to interactive calls.
 */
export type CallPriority = "interactive" | "background";

/** Per-call context: company, tracing, idempotency, cancellation, priority. */
export interface CallContext {
  /** Sent as `X-Company-ID` (Form B company-scoped calls; Form A narrows to it). */
  companyId?: string;
  /** Sent as `X-Request-ID` so one id follows a click to the database. */
  requestId?: string;
  /** Sent as `Idempotency-Key` on writes (required by the API on every write). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Default `interactive`; see `CallPriority`. */
  priority?: CallPriority;
  /**
   * Filled by the client after a successful answer: `replayed` is true when
   * the API answered a write from its idempotency store
   * (`Idempotent-Replayed: true`), i.e. nothing new happened upstream.
   */
  outcome?: { replayed?: boolean };
}

export type QueryValue = string | number | boolean | undefined | null;

export interface HttpRequest<S extends z.ZodType> {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Path below the base URL, e.g. `/accounts/123`; or an absolute URL of the same API (a `next` link). */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised; a FormData goes as multipart/form-data as it is (fetch writes its boundary). */
  body?: unknown;
  schema: S;
  /** Per attempt, overriding the client's timeout (large uploads). */
  timeoutMs?: number;
  /** When true, an empty body (204 or no content) is accepted and yields null. */
  allowEmpty?: boolean;
}

export interface HttpCoreOptions {
  baseUrl: string;
  form: "A" | "B";
  tenantId?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  tokens: TokenManager;
  /** Called on every retry, for logs. */
  onRetry?: (info: { method: string; url: string; attempt: number; reason: string; waitMs: number }) => void;
  /** Where the rate budget is kept (default: in this process). */
  budget?: BudgetStore;
  /** Reserve and bounded wait of background calls (defaults: `DEFAULT_RATE_BUDGET_POLICY`). */
  rateBudget?: Partial<RateBudgetPolicy>;
  /** Called when a background call waits for the budget, for logs. */
  onYield?: (info: { method: string; url: string; waitMs: number; remaining: number; limit: number }) => void;
}

/** Answer of `send`: the parsed body (null when empty and allowed) and the status. */
export interface HttpResult<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** One logical request of `HttpCore.send` and what is decided once for all its attempts. */
interface Call {
  req: HttpRequest<z.ZodType>;
  ctx: CallContext;
  url: URL;
  /** Whether a failed attempt may be repeated (`isSafeToRetry`). */
  safe: boolean;
  priority: CallPriority;
  /** The metrics label, `GET /accounts/{id}`. */
  operation: string;
}

export class HttpCore {
  private readonly base: URL;
  /** The rate budget this client spends (docs/treasury-api.md#limits: per OAuth client). */
  readonly budget: RateBudget;

  constructor(readonly opts: HttpCoreOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, "") + "/");
    this.budget = new RateBudget(opts.budget ?? new MemoryBudgetStore(), {
      ...DEFAULT_RATE_BUDGET_POLICY,
      ...opts.rateBudget,
    });
  }

  /** `GET /accounts/{id}`: the metrics label of a call. */
  private operation(method: string, url: URL): string {
    return `${method} ${routeTemplate(url.pathname.slice(this.base.pathname.length - 1))}`;
  }

  /**
   * Waits before sending while the budget is low: a background call below the reserve waits for the next
   * window (at most `backgroundMaxWaitMs` in all, then it goes anyway); an interactive call only when the budget
   * is spent, and only as long as `maxRetryAfterMs` allows.
   * @throws TreasuryApiError 429 "busy" when an interactive call would have to wait longer than that.
   */
  private async awaitBudget(method: string, url: URL, priority: CallPriority, signal?: AbortSignal): Promise<void> {
    const o = this.opts;
    let waited = 0;
    for (;;) {
      const wait = await this.budget.waitMs(priority, o.now());
      if (wait <= 0) return;
      if (priority === "interactive") {
        if (wait > o.retry.maxRetryAfterMs) {
          metrics().rateLimited.inc({ outcome: "surfaced" });
          throw busyError(wait);
        }
        await o.sleep(wait);
        return;
      }
      const left = this.budget.policy.backgroundMaxWaitMs - waited;
      if (left <= 0 || signal?.aborted) return;
      const step = Math.min(wait, left);
      const s = await this.budget.current(o.now());
      o.onYield?.({ method, url: url.pathname, waitMs: step, remaining: s?.remaining ?? 0, limit: s?.limit ?? 0 });
      await o.sleep(step);
      waited += step;
    }
  }

  /** Keeps the budget an answer announces (never fails the call). */
  private recordBudget(res: Response): void {
    const state = budgetFromHeaders(res.headers, this.opts.now());
    if (!state) return;
    metrics().rateBudgetRemaining.set(state.remaining);
    this.budget.record(state).catch(() => undefined);
  }

  /**
   * Resolves a path or a same-API absolute URL. A `next` link pointing at
   * another origin or outside the base path is refused: the token must never
   * be sent anywhere else.
   */
  resolve(pathOrUrl: string, query?: Record<string, QueryValue>): URL {
    let url: URL;
    if (/^https?:\/\//i.test(pathOrUrl)) {
      url = new URL(pathOrUrl);
      if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) {
        throw new TreasuryResponseError("A pagination link points outside the Treasury API", 200, [
          `next: ${url.origin}${url.pathname}`,
        ]);
      }
    } else {
      url = new URL(pathOrUrl.replace(/^\/+/, ""), this.base);
    }
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
    }
    return url;
  }

  /**
   * Whether a failed attempt may be repeated (docs/treasury-api.md#retries): only a call safe to retry, within
   * `maxAttempts`, whose backoff wait is within `maxRetryAfterMs`; then it reports the retry and waits.
   * @throws `error` when the call may not be repeated.
   */
  private async retryOrThrow(call: Call, attempt: number, reason: string, error: Error): Promise<void> {
    const o = this.opts;
    if (!call.safe || attempt >= o.retry.maxAttempts) throw error;
    const wait = backoffDelayMs(attempt, o.retry, o.random);
    if (wait > o.retry.maxRetryAfterMs) throw error;
    o.onRetry?.({ method: call.req.method, url: call.url.pathname, attempt, reason, waitMs: wait });
    await o.sleep(wait);
  }

  /**
   * The access token for attempt `attempt`, or null after waiting when getting one failed for a reason worth
   * another try (a transport error or a retryable status: no request was sent yet, so waiting and trying again
   * is always safe; a 429's Retry-After is honoured) and attempts are left.
   * @throws the token manager's error otherwise.
   */
  private async tokenOrWait(attempt: number): Promise<string | null> {
    const o = this.opts;
    try {
      return await o.tokens.get();
    } catch (err) {
      if (err instanceof TreasuryTransportError || (err instanceof TreasuryApiError && isRetryableStatus(err.status))) {
        // No request was sent yet, so waiting and trying again is always safe.
        const wait =
          err instanceof TreasuryApiError && err.status === 429
            ? (err.retryAfterSeconds ?? 0) * 1000 || undefined
            : undefined;
        if (attempt >= o.retry.maxAttempts) throw err;
        await o.sleep(wait ?? backoffDelayMs(attempt, o.retry, o.random));
        return null;
      }
      throw err;
    }
  }

  /**
   * The headers of one attempt (docs/treasury-api.md#two-forms): bearer token, JSON accepted, Form A's tenant,
   * the context's company, idempotency key and request id, and a JSON content type unless the body is multipart.
   */
  private headersFor(call: Call, token: string): Record<string, string> {
    const { req, ctx } = call;
    const o = this.opts;
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
    if (o.form === "A" && o.tenantId) headers["X-Tenant-ID"] = o.tenantId;
    if (ctx.companyId) headers["X-Company-ID"] = ctx.companyId;
    if (ctx.idempotencyKey) headers["Idempotency-Key"] = ctx.idempotencyKey;
    if (ctx.requestId) headers["X-Request-ID"] = ctx.requestId;
    if (req.body !== undefined && !(req.body instanceof FormData)) headers["Content-Type"] = "application/json";
    return headers;
  }

  /**
   * One attempt on the wire, with the per-attempt timeout, counted in the upstream metrics; the rate budget the
   * answer announces is kept.
   * @returns the response, or the transport error of a timeout or network failure (the caller decides on a retry).
   * @throws TreasuryTransportError "aborted" when the caller's signal aborted (never retried).
   */
  private async attempt(call: Call, token: string): Promise<Response | TreasuryTransportError> {
    const { req, ctx, url, operation } = call;
    const o = this.opts;
    const m = metrics();
    const multipart = req.body instanceof FormData;
    const timeoutMs = req.timeoutMs ?? o.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    let res: Response;
    const started = o.now();
    try {
      res = await o.fetch(url, {
        method: req.method,
        headers: this.headersFor(call, token),
        body: req.body === undefined ? undefined : multipart ? (req.body as FormData) : JSON.stringify(req.body),
        signal,
        cache: "no-store",
      });
    } catch (err) {
      m.upstreamCalls.inc({ operation, status: "error" });
      m.upstreamDuration.observe({ operation }, (o.now() - started) / 1000);
      if (ctx.signal?.aborted) throw new TreasuryTransportError("aborted", "The request was cancelled", { cause: err });
      const timedOut = timeout.aborted;
      return new TreasuryTransportError(
        timedOut ? "timeout" : "network",
        timedOut ? `The Treasury API did not answer within ${timeoutMs} ms` : "The Treasury API could not be reached",
        { cause: err },
      );
    }
    m.upstreamCalls.inc({ operation, status: String(res.status) });
    m.upstreamDuration.observe({ operation }, (o.now() - started) / 1000);
    this.recordBudget(res);
    return res;
  }

  /**
   * A 429 answer (docs/treasury-api.md#rate-limits): waits as long as the API asks (Retry-After or the rate-limit
   * reset, else the backoff) and returns for another attempt. The API refuses a throttled call before doing
   * anything with it (docs/treasury-api.md#errors: wait, then retry); every write carries an Idempotency-Key, so
   * `safe` holds for them too; a write without one is not repeated.
   * @throws TreasuryApiError 429 "busy" when the call is not safe to repeat, attempts are spent, or the wait is
   *   longer than a call of its priority may wait.
   */
  private async waitThrottled(call: Call, attempt: number, res: Response, error: TreasuryApiError): Promise<void> {
    const o = this.opts;
    const m = metrics();
    const wait = rateLimitWaitMs(res.headers, o.now()) ?? backoffDelayMs(attempt, o.retry, o.random);
    const longest = call.priority === "background" ? this.budget.policy.backgroundMaxWaitMs : o.retry.maxRetryAfterMs;
    if (!call.safe || attempt >= o.retry.maxAttempts || wait > longest) {
      m.rateLimited.inc({ outcome: "surfaced" });
      throw busyError(wait, error);
    }
    m.rateLimited.inc({ outcome: "waited" });
    o.onRetry?.({ method: call.req.method, url: call.url.pathname, attempt, reason: "throttled", waitMs: wait });
    await o.sleep(wait);
  }

  /**
   * Sends one logical request (several attempts at most) and parses the answer
   * (docs/treasury-api.md#retries): the rate budget awaited before the first attempt; a token per attempt; on a
   * 401 a new token and the call repeated once; 429 waited out; timeouts, network errors and 5xx retried when safe.
   * @throws TreasuryApiError, TreasuryTransportError, TreasuryResponseError.
   */
  async send<S extends z.ZodType>(req: HttpRequest<S>, ctx: CallContext = {}): Promise<HttpResult<z.output<S> | null>> {
    const url = this.resolve(req.path, req.query);
    const call: Call = {
      req,
      ctx,
      url,
      safe: isSafeToRetry(req.method, ctx.idempotencyKey),
      priority: ctx.priority ?? "interactive",
      operation: this.operation(req.method, url),
    };
    let attempt = 0;
    let renewedAfter401 = false;
    for (;;) {
      attempt++;
      // Only before the first attempt: a retry after a 429 has already waited as long as the API asked.
      if (attempt === 1) await this.awaitBudget(req.method, url, call.priority, ctx.signal);
      const token = await this.tokenOrWait(attempt);
      if (token === null) continue;
      const res = await this.attempt(call, token);
      if (res instanceof TreasuryTransportError) {
        await this.retryOrThrow(call, attempt, res.reason, res);
        continue;
      }
      if (res.ok) {
        if (ctx.outcome) ctx.outcome.replayed = res.headers.get("idempotent-replayed") === "true";
        return { status: res.status, data: await this.parseBody(res, req), headers: res.headers };
      }
      const error = await toApiError(res);
      if (res.status === 401 && !renewedAfter401) {
        // docs/treasury-api.md#authentication-and-scopes: on 401 fetch a new token and repeat the call once.
        renewedAfter401 = true;
        this.opts.tokens.invalidate(token);
        attempt--;
        continue;
      }
      if (res.status === 429) {
        await this.waitThrottled(call, attempt, res, error);
        continue;
      }
      if (res.status >= 500) {
        await this.retryOrThrow(call, attempt, `status ${res.status}`, error);
        continue;
      }
      throw error;
    }
  }

  private async parseBody<S extends z.ZodType>(res: Response, req: HttpRequest<S>): Promise<z.output<S> | null> {
    const text = res.status === 204 ? "" : await res.text();
    if (text.trim() === "") {
      if (req.allowEmpty) return null;
      throw new TreasuryResponseError(`${req.method} ${req.path} answered ${res.status} without a body`, res.status, [
        "body: missing",
      ]);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TreasuryResponseError(
        `${req.method} ${req.path} answered ${res.status} with a body that is not JSON`,
        res.status,
        ["body: not JSON"],
      );
    }
    const parsed = req.schema.safeParse(json);
    if (!parsed.success) {
      throw new TreasuryResponseError(
        `${req.method} ${req.path} answered with a body that does not match the contract`,
        res.status,
        parsed.error.issues.slice(0, 20).map((i) => `${i.path.join(".") || "body"}: ${i.message}`),
      );
    }
    return parsed.data as z.output<S>;
  }
}

/**
 * Reads an error answer into a `TreasuryApiError` (body shape of docs/treasury-api.md#errors when present; the shared error-body reader).
 */
async function toApiError(res: Response): Promise<TreasuryApiError> {
  const body = errorBodyFields(await readLenientJson(res));
  const retryAfter = res.headers.get("retry-after");
  return new TreasuryApiError({
    status: res.status,
    code: body.error ?? fallbackCode(res.status),
    message: body.message ?? `The Treasury API answered ${res.status}`,
    details: body.details,
    requestId: res.headers.get("x-request-id") ?? undefined,
    retryAfterSeconds: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
  });
}

/**
 * The error a person sees when the API's rate limit would keep a page waiting too long: a 429
 * `TreasuryApiError` saying when to retry (the BFF answers it as 503 with Retry-After).
 * @param waitMs how long the API asked to wait
 */
function busyError(waitMs: number, from?: TreasuryApiError): TreasuryApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new TreasuryApiError({
    status: 429,
    code: "throttled",
    message: `The Treasury API is busy; retry in ${seconds} s`,
    details: from?.details,
    requestId: from?.requestId,
    retryAfterSeconds: seconds,
  });
}

function fallbackCode(status: number): string {
  const map: Record<number, string> = {
    400: "validation_error",
    401: "authentication_failed",
    403: "permission_denied",
    404: "not_found",
    409: "conflict",
    429: "throttled",
    503: "service_unavailable",
  };
  return map[status] ?? (status >= 500 ? "internal_error" : "error");
}
