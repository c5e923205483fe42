/**
 * `GET /metrics` of the treasury-api over real HTTP: the real server on an
 * in-memory database with the test fixture, real traffic (a list call, a
 * write replayed with its Idempotency-Key, a webhook test delivery to an
 * endpoint that answers 500), then the scrape. The access rule is tested over
 * HTTP where loopback allows it (a wrong token) and as units with fake addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardedAddresses, isLoopbackAddress, metricsAccess } from "../lib/metrics-access";
import type { RunningServer } from "../server";
import { startLoopbackReceiver, type LoopbackReceiver } from "../webhooks/loopback-receiver";
import { CLIENTS, IDS, insertFixture } from "./harness";
import { clientToken, startLoopbackServer } from "./loopback";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let api: RunningServer;
let rx: LoopbackReceiver;

beforeAll(async () => {
  api = await startLoopbackServer({
    config: { bankSpeed: "manual", allowPrivateWebhooks: true, metricsToken: METRICS_TOKEN },
  });
  await insertFixture(api.database);
  rx = await startLoopbackReceiver();
  rx.respond = () => ({ status: 500 });
});
afterAll(async () => {
  await rx?.close();
  await api?.close();
});

/** The full Form B client's token over HTTP (throws unless the answer is 200). */
const token = (): Promise<string> => clientToken(api.url, CLIENTS.fullB.clientId, CLIENTS.fullB.secret);

/** The value of one sample line (`name{labels} value`) whose labels include all of `labels`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2] ?? "";
    if (Object.entries(labels).every(([k, v]) => have.includes(`${k}="${v}"`))) return Number(m[3]);
  }
  return undefined;
}

describe("GET /metrics after real traffic", () => {
  let text = "";

  beforeAll(async () => {
    // A scrape reuses the state read of any scrape in the last second. Tests run in any order, so another block may
    // have scraped just before this one; the scrape below must read the state this traffic leaves, hence it waits
    // until the reuse window of every scrape made before this block has passed.
    const started = Date.now();
    const bearer = { authorization: `Bearer ${await token()}`, "x-company-id": IDS.companyA };
    expect((await fetch(`${api.url}/public/accounts`, { headers: bearer })).status).toBe(200);
    const create = () =>
      fetch(`${api.url}/public/webhooks`, {
        method: "POST",
        headers: { ...bearer, "content-type": "application/json", "idempotency-key": "metrics-test-webhook-1" },
        body: JSON.stringify({ url: `${rx.url}/hook`, events: ["transaction.created"] }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    const replay = await create();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const { id } = (await first.json()) as { id: string };
    const test = await fetch(`${api.url}/public/webhooks/${id}/test`, {
      method: "POST",
      headers: { ...bearer, "idempotency-key": "metrics-test-webhook-test-1" },
    });
    expect(((await test.json()) as { status: string }).status).toBe("pending"); // answered 500: retried later

    const reuseLeft = started + 1001 - Date.now();
    if (reuseLeft > 0) await new Promise((r) => setTimeout(r, reuseLeft));
    const res = await fetch(`${api.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    text = await res.text();
  });

  it("counts requests by route template, method and status, with a latency histogram", () => {
    expect(
      sample(text, "treasury_api_requests_total", { route: "/public/accounts", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "treasury_api_requests_total", { route: "/public/webhooks/:id/test", status: "200" })).toBe(1);
    expect(
      sample(text, "treasury_api_request_duration_seconds_count", { route: "/public/accounts", method: "GET" }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/public\/webhooks\/[0-9a-f-]{36}/); // templates, never concrete ids
  });

  it("counts idempotency replays and webhook delivery failures", () => {
    expect(sample(text, "treasury_api_idempotency_replays_total")).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "treasury_api_webhook_delivery_failures_total", { outcome: "retrying" }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("reads outbox depth and age and the bank simulator's lag from the database at scrape time", () => {
    expect(sample(text, "treasury_api_outbox_pending_deliveries")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "treasury_api_outbox_undispatched_events")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "treasury_api_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "treasury_api_bank_simulator_lag_seconds")).toBe(0); // no approved batch is waiting
    expect(sample(text, "treasury_api_bank_simulator_last_run_timestamp_seconds")).toBe(0); // manual: no worker
    expect(sample(text, "treasury_api_process_cpu_seconds_total")).toBeGreaterThan(0); // Node defaults
  });

  it("answers without the state gauges when their query fails, and says so", async () => {
    expect(sample(text, "treasury_api_state_scrape_up")).toBe(1);
    // A real failure of the state query: one of the tables it reads is renamed away, then put back.
    await api.database.exec("alter table webhook_deliveries rename to webhook_deliveries_away");
    let broken = "";
    try {
      await new Promise((r) => setTimeout(r, 1100)); // past the 1 s reuse of the last state read
      const res = await fetch(`${api.url}/metrics`);
      expect(res.status).toBe(200);
      broken = await res.text();
    } finally {
      await api.database.exec("alter table webhook_deliveries_away rename to webhook_deliveries");
    }
    expect(sample(broken, "treasury_api_state_scrape_up")).toBe(0);
    expect(sample(broken, "treasury_api_outbox_pending_deliveries")).toBeUndefined();
    expect(sample(broken, "treasury_api_requests_total", { route: "/public/accounts", method: "GET" })).toBeGreaterThan(
      0,
    );
    await new Promise((r) => setTimeout(r, 1100));
    const again = await (await fetch(`${api.url}/metrics`)).text();
    expect(sample(again, "treasury_api_state_scrape_up")).toBe(1);
    expect(sample(again, "treasury_api_outbox_pending_deliveries")).toBeGreaterThanOrEqual(1);
  });

  it("is not part of the public OpenAPI document", async () => {
    const doc = (await (await fetch(`${api.url}/public/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes("metrics"))).toEqual([]);
  });
});

describe("access to GET /metrics", () => {
  it("answers a loopback client without a token, and a client with the right token", async () => {
    expect((await fetch(`${api.url}/metrics`)).status).toBe(200);
    const res = await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong token with 401 even from loopback, and a proxied remote client", async () => {
    const wrong = await fetch(`${api.url}/metrics`, { headers: { authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const proxied = await fetch(`${api.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(proxied.status).toBe(401);
    expect(await proxied.text()).not.toContain("treasury_api_");
  });

  it("the rule: token first, then loopback; 401 with a token configured, else 404", () => {
    expect(metricsAccess(false, `Bearer ${METRICS_TOKEN}`, METRICS_TOKEN)).toEqual({ allowed: true });
    expect(metricsAccess(false, `bearer ${METRICS_TOKEN} `, METRICS_TOKEN)).toEqual({ allowed: true });
    expect(metricsAccess(false, "Bearer wrong", METRICS_TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, "Bearer wrong", METRICS_TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, `Basic ${METRICS_TOKEN}`, METRICS_TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(false, "Bearer anything", undefined)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(true, null, METRICS_TOKEN)).toEqual({ allowed: true });
    expect(metricsAccess(true, null, undefined)).toEqual({ allowed: true });
    expect(metricsAccess(false, null, METRICS_TOKEN)).toEqual({ allowed: false, status: 401 });
    expect(metricsAccess(false, null, undefined)).toEqual({ allowed: false, status: 404 });
    expect(metricsAccess(false, null, "")).toEqual({ allowed: false, status: 404 });
  });

  it("loopback means 127.0.0.0/8 or ::1, also IPv4-mapped; anything else or junk is not", () => {
    for (const a of ["127.0.0.1", "127.9.8.7", "::1", "[::1]", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ["10.0.0.1", "203.0.113.7", "::ffff:203.0.113.7", "fe80::1", "unknown", "", undefined, "localhost"])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  it("reads the client addresses proxies name, without ports", () => {
    const h = new Headers({
      "x-forwarded-for": "203.0.113.7, 127.0.0.1",
      "x-real-ip": "10.1.2.3",
      forwarded: 'for="[2001:db8::1]:4711";proto=https, for=198.51.100.2:80',
    });
    expect(forwardedAddresses(h)).toEqual(["203.0.113.7", "127.0.0.1", "10.1.2.3", "2001:db8::1", "198.51.100.2"]);
    expect(forwardedAddresses(new Headers())).toEqual([]);
  });
});
