/**
 * Runs one scenario under load with autocannon (fixed duration, fixed number
 * of connections, keep-alive) and returns latency percentiles and throughput.
 */
import autocannon from "autocannon";
import type { BenchScenario, ScenarioContext } from "./scenario";

export interface LoadOptions {
  /** e.g. http://127.0.0.1:4010 */
  baseUrl: string;
  token: string;
  durationSeconds: number;
  connections: number;
}

export interface LoadResult {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The full request of iteration `ctx.iteration`: absolute path and auth header. */
export function materialize(
  s: BenchScenario,
  ctx: ScenarioContext,
  token: string,
): { method: string; path: string; headers: Record<string, string>; body?: string } {
  const r = s.request(ctx);
  return {
    method: r.method,
    path: s.rootPath ? r.path : `/public${r.path}`,
    headers: s.rootPath ? r.headers : { ...r.headers, authorization: `Bearer ${token}` },
    body: r.body,
  };
}

/** Sends one request and returns status and body (for the smoke check before the load run). */
export async function sendOnce(
  s: BenchScenario,
  ctx: ScenarioContext,
  opts: LoadOptions,
): Promise<{ status: number; body: string }> {
  const r = materialize(s, ctx, opts.token);
  const res = await fetch(`${opts.baseUrl}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  return { status: res.status, body: await res.text() };
}

/** Loads the server with `s` for `durationSeconds`. Iterations continue from `ctx.iteration`. */
export async function runLoad(s: BenchScenario, ctx: ScenarioContext, opts: LoadOptions): Promise<LoadResult> {
  let iteration = ctx.iteration;
  const result = await autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    duration: opts.durationSeconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const r = materialize(s, { ...ctx, iteration: iteration++ }, opts.token);
          return { ...req, method: r.method as "GET", path: r.path, headers: r.headers, body: r.body };
        },
      },
    ],
  });
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
