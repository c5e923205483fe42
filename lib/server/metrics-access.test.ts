/**
 * The dashboard's `GET /metrics`: the access rule (loopback decided by the dashboard's own bind address, never by
 * request headers), and the route handler serialising the registry after something was recorded.
 */
import { describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";

vi.mock("server-only", () => ({}));
const config: { METRICS_TOKEN: string | undefined } = { METRICS_TOKEN: undefined };
process.env.HOSTNAME_BIND = "127.0.0.1";
vi.mock("@/lib/server/config", () => ({ getConfig: () => config }));

const { isLoopbackAddress, listensOnLoopback, metricsAccess, metricsResponse } = await import("./metrics-access");
const { metrics } = await import("./metrics");
const { GET } = await import("@/app/metrics/route");

const TOKEN = "dashboard-metrics-token-0123456789";

describe("the access rule", () => {
  it("token first (constant-time compare), then loopback; 401 with a token configured, else 404", () => {
    expect(metricsAccess(false, `Bearer ${TOKEN}`, TOKEN)).toEqual({ allowed: true });
    expect(metricsAccess(false, "Bearer wrong", TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, "Bearer wrong", TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(false, `Basic ${TOKEN}`, TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, "Bearer anything", undefined)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, null, undefined)).toEqual({ allowed: true });
    expect(metricsAccess(false, null, TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(false, null, undefined)).toEqual({ allowed: false, status: 404 });
  });

  it("loopback addresses: 127.0.0.0/8, ::1, IPv4-mapped; not names, private ranges or junk", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ["10.0.0.1", "203.0.113.7", "::ffff:203.0.113.7", "localhost", "unknown", "", null])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  it("loopback is decided by the dashboard's own bind address (HOSTNAME_BIND, else HOSTNAME), never by headers", () => {
    for (const bind of ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"])
      expect(listensOnLoopback({ HOSTNAME_BIND: bind }), bind).toBe(true);
    expect(listensOnLoopback({ HOSTNAME: "127.0.0.1" })).toBe(true);
    for (const bind of ["0.0.0.0", "::", "10.0.0.5", "dashboard.example.com", ""])
      expect(listensOnLoopback({ HOSTNAME_BIND: bind }), bind).toBe(false);
    // HOSTNAME_BIND wins over HOSTNAME (a container's HOSTNAME is its id); neither set: all interfaces, not loopback.
    expect(listensOnLoopback({ HOSTNAME_BIND: "0.0.0.0", HOSTNAME: "localhost" })).toBe(false);
    expect(listensOnLoopback({ HOSTNAME: "3f2a9c1b7e0d" })).toBe(false);
    expect(listensOnLoopback({})).toBe(false);
  });

  it("forged Host and X-Forwarded-For do not make a request loopback when the dashboard listens on every interface", async () => {
    const forged = new Headers({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1", "x-real-ip": "::1" });
    expect((await metricsResponse(forged, undefined, false)).status).toBe(404);
    // Listening on loopback only, every client is local, whatever it says.
    const remoteLooking = new Headers({ host: "dashboard.example.com", "x-forwarded-for": "203.0.113.7" });
    expect((await metricsResponse(remoteLooking, undefined, true)).status).toBe(200);
  });

  it("with METRICS_TOKEN set, even a dashboard listening on loopback asks for the token", async () => {
    const headers = new Headers({ host: "127.0.0.1:3000" });
    const refused = await metricsResponse(headers, TOKEN, true);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    headers.set("authorization", `Bearer ${TOKEN}`);
    expect((await metricsResponse(headers, TOKEN, false)).status).toBe(200);
    expect((await metricsResponse(new Headers({ host: "dashboard.example.com" }), undefined, false)).status).toBe(404);
  });
});

describe("GET /metrics (app/metrics/route.ts)", () => {
  it("serialises the registry in the Prometheus text format with the dashboard's metric names", async () => {
    metrics().upstreamCalls.inc({ operation: "GET /accounts", status: "200" });
    metrics().bffDuration.observe({ route: "/api/treasury/accounts/[id]", status: "200" }, 0.004);
    metrics().cacheEvents.inc({ resource: "accounts", event: "hit" });
    const res = await GET(
      new NextRequest("http://127.0.0.1:3000/metrics", {
        headers: { host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('dashboard_upstream_calls_total{operation="GET /accounts",status="200"} 1');
    expect(text).toContain('dashboard_bff_duration_seconds_count{route="/api/treasury/accounts/[id]",status="200"} 1');
    expect(text).toContain('dashboard_upstream_cache_events_total{resource="accounts",event="hit"} 1');
    for (const name of [
      "dashboard_upstream_duration_seconds",
      "dashboard_rate_budget_remaining",
      "dashboard_rate_limited_total",
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).toContain("dashboard_process_cpu_seconds_total");
  });

  it("refuses every client of a dashboard listening on every interface: 404 without a token, 401 with one", async () => {
    process.env.HOSTNAME_BIND = "0.0.0.0";
    const remote = () =>
      new NextRequest("http://127.0.0.1:3000/metrics", {
        headers: { host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" },
      });
    expect((await GET(remote())).status).toBe(404);
    config.METRICS_TOKEN = TOKEN;
    try {
      const res = await GET(remote());
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("dashboard_");
    } finally {
      config.METRICS_TOKEN = undefined;
      process.env.HOSTNAME_BIND = "127.0.0.1";
    }
  });
});
