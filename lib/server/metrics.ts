/**
 * The dashboard server's Prometheus metrics (prom-client): one registry per
 * process, kept on `globalThis` so that Next.js module reloads in development
 * never register a metric twice. Every instrumented module imports the
 * metric objects from here; `GET /metrics` serialises `metricsRegistry`.
 *
 * Names and labels (documented in docs/operations.md#metrics):
 * - `dashboard_upstream_calls_total{operation,status}`: Treasury API calls by
 *   operation (method and route template, e.g. `GET /accounts/{id}`) and HTTP
 *   status (`error` when no answer came).
 * - `dashboard_upstream_duration_seconds{operation}`: their latency.
 * - `dashboard_upstream_cache_events_total{resource,event}`: upstream cache
 *   `hit`, `miss` and `coalesced` (a caller that waited for an identical call
 *   in flight instead of making its own).
 * - `dashboard_rate_budget_remaining`: the last `X-RateLimit-Remaining` seen.
 * - `dashboard_rate_limited_total{outcome}`: 429 answers, `waited` or `surfaced`.
 * - `dashboard_bff_duration_seconds{route,status}`: BFF route latency.
 */
import "server-only";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Seconds; from 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "dashboard_" });
  return {
    registry,
    upstreamCalls: new Counter({
      name: "dashboard_upstream_calls_total",
      help: "Treasury API calls by operation and HTTP status",
      labelNames: ["operation", "status"] as const,
      registers: [registry],
    }),
    upstreamDuration: new Histogram({
      name: "dashboard_upstream_duration_seconds",
      help: "Treasury API call latency by operation",
      labelNames: ["operation"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    cacheEvents: new Counter({
      name: "dashboard_upstream_cache_events_total",
      help: "Upstream cache hits, misses and coalesced waits by resource",
      labelNames: ["resource", "event"] as const,
      registers: [registry],
    }),
    rateBudgetRemaining: new Gauge({
      name: "dashboard_rate_budget_remaining",
      help: "The Treasury API's last X-RateLimit-Remaining for this client",
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "dashboard_rate_limited_total",
      help: "429 answers from the Treasury API, waited out or surfaced to a person",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    bffDuration: new Histogram({
      name: "dashboard_bff_duration_seconds",
      help: "BFF route latency by route and status",
      labelNames: ["route", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

const g = globalThis as typeof globalThis & { __dashboardMetrics?: ReturnType<typeof createMetrics> };

/** The process's metric objects (created on first use). */
export function metrics(): ReturnType<typeof createMetrics> {
  g.__dashboardMetrics ??= createMetrics();
  return g.__dashboardMetrics;
}
