/**
 * `GET /metrics` of the treasury-api and the middleware that feeds it:
 * every request is counted by route template, method and status, and timed
 * (lib/metrics.ts names the metrics). The endpoint lives outside `/public`, so
 * it is neither gated by OAuth nor part of the OpenAPI document; access is
 * the rule of lib/metrics-access.ts, with "loopback" meaning the TCP peer is
 * on loopback and no proxy header names another client.
 */
import type { Context, Handler, MiddlewareHandler } from "hono";
import { forwardedAddresses, isLoopbackAddress, metricsAccess, refusal } from "../lib/metrics-access";
import type { Db } from "../db/client";
import type { AppEnv } from "../lib/context";
import { apiMetrics, stateRegistry } from "../lib/metrics";
import { clientAddress } from "./gate";

/** The matched route template (`/public/accounts/:id`), or `unmatched` when only wildcard middleware matched. */
export function routeLabel(c: Context<AppEnv>): string {
  const path = c.req.routePath;
  return !path || path.endsWith("*") ? "unmatched" : path;
}

/** Counts and times every request; runs outermost, so errors turned into responses are counted with their status. */
export function requestMetrics(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const m = apiMetrics();
      const route = routeLabel(c);
      m.requests.inc({ route, method: c.req.method, status: String(c.res.status) });
      m.requestDuration.observe({ route, method: c.req.method }, (performance.now() - started) / 1000);
    }
  };
}

/** True when the TCP peer is on loopback and no proxy header names a client elsewhere. */
export function isLoopbackClient(c: Context<AppEnv>): boolean {
  return isLoopbackAddress(clientAddress(c)) && forwardedAddresses(c.req.raw.headers).every(isLoopbackAddress);
}

/**
 * The `GET /metrics` handler: both registries in the Prometheus text format, or a 401 / 404 refusal.
 * When the database query behind the state gauges fails, the scrape still answers 200 with the process's own metrics,
 * leaves the state gauges out and sets `treasury_api_state_scrape_up` to 0 (1 when they were read), with a warning in
 * the log; a failing database must not also blind the monitoring that should report it.
 */
export function metricsEndpoint(db: Db): Handler<AppEnv> {
  const state = stateRegistry(db);
  return async (c) => {
    const access = metricsAccess(isLoopbackClient(c), c.req.header("authorization"), c.get("config").metricsToken);
    if (!access.allowed) return refusal(access.status);
    const { registry, stateScrapeUp } = apiMetrics();
    let stateText = "";
    try {
      stateText = await state.metrics();
      stateScrapeUp.set(1);
    } catch (err) {
      stateScrapeUp.set(0);
      c.get("logger")?.warn({ err }, "metrics: the state gauges could not be read from the database");
    }
    const body = (await registry.metrics()) + stateText;
    return c.body(body, 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  };
}
