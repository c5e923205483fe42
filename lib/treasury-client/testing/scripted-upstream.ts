/**
 * A scripted upstream for unit tests of the treasury client: a `fetch`
 * replacement that answers from a queue of steps and records every request.
 * Token requests are answered by `tokenStep` (default: a fresh token each
 * time) so that API steps stay focused on the behaviour under test.
 */

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

export type Step = (req: RecordedRequest, signal: AbortSignal | undefined) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function apiError(
  status: number,
  error: string,
  message = error,
  headers: Record<string, string> = {},
): Response {
  return json(status, { error, message, details: {} }, headers);
}

export class ScriptedUpstream {
  readonly requests: RecordedRequest[] = [];
  readonly tokenRequests: RecordedRequest[] = [];
  private readonly steps: Step[] = [];
  private tokenCounter = 0;
  tokenStep: Step = () =>
    json(200, {
      access_token: `tok-${++this.tokenCounter}`,
      token_type: "Bearer",
      expires_in: 3600,
      scope: "read:ledger",
    });

  /** Queues answers for the next API (non-token) requests, in order. */
  then(...steps: Step[]): this {
    this.steps.push(...steps);
    return this;
  }

  get pending(): number {
    return this.steps.length;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const req: RecordedRequest = {
      method: init?.method ?? "GET",
      url,
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : undefined,
    };
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    if (url.pathname.includes("/auth/")) {
      this.tokenRequests.push(req);
      return this.tokenStep(req, signal);
    }
    this.requests.push(req);
    const step = this.steps.shift();
    if (!step) throw new Error(`unscripted request ${req.method} ${url.pathname}`);
    return step(req, signal);
  };
}

/** A step that never answers until the request is aborted (for timeouts). */
export const hang: Step = (_req, signal) =>
  new Promise<Response>((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason));
  });

/** A step that fails like a refused connection. */
export const networkError: Step = () => {
  throw new TypeError("fetch failed");
};

/** The tests' client identity: Form B client `demo-client` of an upstream at `http://upstream.test/public`. */
export const TEST_CLIENT = {
  baseUrl: "http://upstream.test/public",
  form: "B",
  clientId: "demo-client",
  clientSecret: "s3cret",
} as const;

/**
 * A clock the tests move by hand, starting 2026-01-10 08:00 UTC: `now()` reads `t` (epoch ms); `sleep(ms)` records
 * each wait in `sleeps` and moves `t` on by it, so a client's back-off takes no real time.
 */
export class ManualClock {
  t = Date.UTC(2026, 0, 10, 8, 0, 0);
  readonly sleeps: number[] = [];
  readonly now = (): number => this.t;
  readonly sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.t += ms;
  };
}
