/** Route templates for the BFF latency histogram, and the wrapper that observes each answer. */
import { describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";

vi.mock("server-only", () => ({}));
const { routeTemplate, timed } = await import("./route-metrics");
const { metrics } = await import("../server/metrics");

const ID = "40000000-0000-4000-8000-0000000000a1";

describe("routeTemplate", () => {
  it("puts the parameter names back in place of their values", () => {
    expect(routeTemplate(`/api/treasury/accounts/${ID}`, { id: ID })).toBe("/api/treasury/accounts/[id]");
    expect(routeTemplate(`/api/treasury/accounts/${ID}/balances`, { id: ID })).toBe(
      "/api/treasury/accounts/[id]/balances",
    );
    expect(routeTemplate("/api/treasury/accounts", {})).toBe("/api/treasury/accounts");
    expect(routeTemplate("/api/docs/a/b%20c", { path: ["a", "b c"] })).toBe("/api/docs/[...path]");
  });
});

describe("timed", () => {
  it("observes dashboard_bff_duration_seconds by route template and status, and returns the answer untouched", async () => {
    const handler = timed(async () => new Response("x", { status: 418 }));
    const req = new NextRequest(`http://localhost/api/treasury/payments/batches/${ID}`);
    const res = await handler(req, { params: Promise.resolve({ id: ID }) });
    expect(res.status).toBe(418);
    await new Promise((r) => setTimeout(r, 0));
    const text = await metrics().registry.metrics();
    expect(text).toContain(
      'dashboard_bff_duration_seconds_count{route="/api/treasury/payments/batches/[id]",status="418"} 1',
    );
  });
});
