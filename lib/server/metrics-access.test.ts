/**
 * The dashboard's `GET /metrics`: the access rule with fake addresses and
 * headers (tests run on loopback), and the route handler serialising the
 * registry after something was recorded.
 */
import { describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";

vi.mock("server-only", () => ({}));
const config: { METRICS_TOKEN: string | undefined } = { METRICS_TOKEN: undefined };
vi.mock("@/lib/server/config", () => ({ getConfig: () => config }));

const { forwardedAddresses, isLoopbackAddress, looksLoopback, metricsAccess, metricsResponse } =
  await import("./metrics-access");
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

  it("reads proxy headers, without ports", () => {
    const h = new Headers({ "x-forwarded-for": "203.0.113.7, 127.0.0.1", forwarded: 'for="[::1]:80", for=1.2.3.4:5' });
    expect(forwardedAddresses(h)).toEqual(["203.0.113.7", "127.0.0.1", "::1", "1.2.3.4"]);
  });

  it("a request looks loopback only with a loopback Host and only loopback addresses in the proxy headers", () => {
    const req = (headers: Record<string, string>) => new Headers(headers);
    expect(looksLoopback(req({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" }))).toBe(true);
    expect(looksLoopback(req({ host: "localhost:3000", "x-forwarded-for": "::ffff:127.0.0.1" }))).toBe(true);
    expect(looksLoopback(req({ host: "[::1]:3000", "x-forwarded-for": "::1" }))).toBe(true);
    // A proxy that appends the real client spoils a forged header; a public Host is never loopback.
    expect(looksLoopback(req({ host: "localhost", "x-forwarded-for": "127.0.0.1, 203.0.113.7" }))).toBe(false);
    expect(looksLoopback(req({ host: "dashboard.example.com", "x-forwarded-for": "127.0.0.1" }))).toBe(false);
    expect(looksLoopback(req({ host: "localhost", "x-real-ip": "10.0.0.5", "x-forwarded-for": "127.0.0.1" }))).toBe(
      false,
    );
    // No address at all (not how `next start` sends requests): refused rather than guessed.
    expect(looksLoopback(req({ host: "localhost" }))).toBe(false);
  });

  it("with METRICS_TOKEN set, a loopback-looking request still needs the token", async () => {
    const headers = new Headers({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" });
    const refused = await metricsResponse(headers, TOKEN);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    headers.set("authorization", `Bearer ${TOKEN}`);
    expect((await metricsResponse(headers, TOKEN)).status).toBe(200);
    expect((await metricsResponse(new Headers({ host: "dashboard.example.com" }), undefined)).status).toBe(404);
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

  it("refuses a remote client: 404 without a token configured, 401 with one", async () => {
    const remote = () =>
      new NextRequest("http://dashboard.example.com/metrics", { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect((await GET(remote())).status).toBe(404);
    config.METRICS_TOKEN = TOKEN;
    try {
      const res = await GET(remote());
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("dashboard_");
    } finally {
      config.METRICS_TOKEN = undefined;
    }
  });
});
