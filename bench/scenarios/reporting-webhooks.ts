/**
 * Benchmark scenarios for reporting and webhooks:
 * - GET /reporting/cashflow/daily and GET /reporting/positions/daily over 13
 *   months (target p50 ≤ 150 ms on PostgreSQL with 1,000,000 transactions);
 * - webhook delivery throughput to a loopback receiver (events per second);
 * each reported with its ratio to the trivial route GET /ping.
 *
 * `reportingScenarios` are entries for the scenario list of `bench/api.ts`
 * (same `ApiScenario` shape as the payments scenario); `measureWebhookThroughput`
 * measures the worker. Run alone:
 *
 *   npx tsx bench/scenarios/reporting-webhooks.ts [--scale 50] [--iterations 30] [--events 2000]
 *
 * seeds the demo data (scale 50 ≈ 1.15 million transactions) into an in-memory
 * PGlite, or into PostgreSQL when DATABASE_URL is set (an empty database).
 */
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { ApiScenario, ScenarioRequest } from "./payments";

/** `YYYY-MM-DD` of `today` minus `months` months (UTC). */
export function monthsBefore(today: string, months: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

const thirteenMonths = () => {
  const today = new Date().toISOString().slice(0, 10);
  return `from_date=${monthsBefore(today, 13)}&to_date=${today}&page_size=1000`;
};

export const cashflowScenario: ApiScenario = {
  name: "GET /reporting/cashflow/daily (13 months)",
  targetMs: 150,
  request: ({ companyId }) => ({
    method: "GET",
    path: `/reporting/cashflow/daily?${thirteenMonths()}`,
    headers: { "x-company-id": companyId },
  }),
};

export const positionsScenario: ApiScenario = {
  name: "GET /reporting/positions/daily (13 months)",
  targetMs: 150,
  request: ({ companyId }) => ({
    method: "GET",
    path: `/reporting/positions/daily?${thirteenMonths()}`,
    headers: { "x-company-id": companyId },
  }),
};

export const forecastScenario: ApiScenario = {
  name: "GET /reporting/forecast (30 days)",
  targetMs: 150,
  request: ({ companyId }) => ({ method: "GET", path: "/reporting/forecast", headers: { "x-company-id": companyId } }),
};

/** The reporting entries for the scenario list of bench/api.ts. */
export const reportingScenarios: ApiScenario[] = [cashflowScenario, positionsScenario, forecastScenario];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

export interface ThroughputResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * Delivers `events` outbox events to a loopback receiver through an active
 * endpoint of `clientId` and returns events per second (fan-out, signing,
 * HTTP, attempt records included).
 */
export async function measureWebhookThroughput(
  database: import("@treasury/api/db/client").Database,
  opts: { clientId: string; tenantId: string; companyId: string; events: number },
): Promise<ThroughputResult> {
  const { resolveConfig } = await import("@treasury/api/config");
  const { webhookEndpoints } = await import("@treasury/api/db/schema");
  const { runWebhooksOnce } = await import("@treasury/api/webhooks/delivery");
  const { startLoopbackReceiver } = await import("@treasury/api/webhooks/loopback-receiver");
  const { enqueueEvents } = await import("@treasury/api/webhooks/outbox");
  const { generateWebhookSecret } = await import("@treasury/api/webhooks/signing");
  const rx = await startLoopbackReceiver();
  try {
    const secret = generateWebhookSecret();
    rx.secrets.set("bench", secret);
    const endpointId = crypto.randomUUID();
    await database.db.insert(webhookEndpoints).values({
      id: endpointId,
      clientId: opts.clientId,
      tenantId: opts.tenantId,
      url: `${rx.url}/bench`,
      events: ["transaction.created"],
      secret,
    });
    await enqueueEvents(
      database.db,
      Array.from({ length: opts.events }, (_, i) => ({
        tenantId: opts.tenantId,
        companyId: opts.companyId,
        type: "transaction.created" as const,
        data: { bench: i, amount: "100.00" },
      })),
    );
    // The receiver is on loopback, which only the development setting allows.
    const config = resolveConfig({ allowPrivateWebhooks: true });
    const t0 = performance.now();
    while (rx.received.filter((d) => d.path === "/bench").length < opts.events) {
      const r = await runWebhooksOnce(database.db, config, { batchSize: 200, concurrency: 32, maxRounds: 1000 });
      if (r.attempted === 0 && r.dispatched === 0) await new Promise((res) => setTimeout(res, 5));
    }
    const seconds = (performance.now() - t0) / 1000;
    const bad = rx.received.filter((d) => d.path === "/bench" && !d.validFor.includes("bench")).length;
    if (bad) throw new Error(`${bad} deliveries failed signature verification`);
    await database.db
      .update(webhookEndpoints)
      .set({ active: false })
      .where((await import("drizzle-orm")).eq(webhookEndpoints.id, endpointId));
    return { events: opts.events, seconds, eventsPerSecond: opts.events / seconds };
  } finally {
    await rx.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, dflt: number) => {
    const i = argv.indexOf(`--${name}`);
    const v = i >= 0 ? Number(argv[i + 1]) : dflt;
    return Number.isFinite(v) && v > 0 ? v : dflt;
  };
  const scale = arg("scale", 1);
  const iterations = arg("iterations", 30);
  const events = arg("events", 2000);
  const { openDatabase } = await import("@treasury/api/db/client");
  const { seedDemo } = await import("@treasury/api/seed/index");
  const { createApp } = await import("@treasury/api/app");
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(url ? { url } : { dataDir: "memory" });
  try {
    const t0 = performance.now();
    const fixtures = await seedDemo(database, { scale });
    process.stdout.write(
      `seeded scale ${scale} (${fixtures.counts.transactions} transactions) on ${database.kind} in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );
    const client = fixtures.clients.find(
      (c) =>
        c.form === "B" && c.allowed_scopes.includes("read:reporting") && c.allowed_scopes.includes("read:forecast"),
    );
    if (!client) throw new Error("no Form B demo client with read:reporting");
    // The company with the most transactions is the honest worst case.
    const counts = new Map<string, number>();
    for (const a of fixtures.accounts) counts.set(a.company_id, (counts.get(a.company_id) ?? 0) + 1);
    const companyId = client.company_ids.sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0))[0] ?? "";
    const app = createApp({ database, config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } });
    const tokenRes = await app.request("/public/auth/token/", {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const send = async (r: ScenarioRequest) => {
      const t = performance.now();
      const res = await app.request(`/public${r.path}`, {
        method: r.method,
        headers: { ...r.headers, authorization: `Bearer ${token}` },
        body: r.body,
      });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`${r.method} ${r.path}: ${res.status}`);
      return performance.now() - t;
    };
    const measure = async (make: () => ScenarioRequest) => {
      for (let i = 0; i < 3; i++) await send(make());
      const xs: number[] = [];
      for (let i = 0; i < iterations; i++) xs.push(await send(make()));
      return { p50: percentile(xs, 50), p95: percentile(xs, 95) };
    };
    const ping = await measure(() => ({ method: "GET", path: "/ping", headers: {} }));
    process.stdout.write(`GET /ping: p50 ${ping.p50.toFixed(2)} ms, p95 ${ping.p95.toFixed(2)} ms\n`);
    for (const s of reportingScenarios) {
      const m = await measure(() => s.request({ companyId, currency: "NOK", iteration: 0 }));
      const verdict = m.p50 <= s.targetMs ? "met" : "MISSED";
      process.stdout.write(
        `${s.name}: p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms (target ≤ ${s.targetMs} ms: ` +
          `${verdict}); ratio to /ping ${(m.p50 / ping.p50).toFixed(1)}×\n`,
      );
    }
    const w = await measureWebhookThroughput(database, {
      clientId: client.id,
      tenantId: client.tenant_id,
      companyId,
      events,
    });
    const pingPerSecond = 1000 / ping.p50;
    process.stdout.write(
      `webhook delivery to loopback: ${w.events} events in ${w.seconds.toFixed(2)} s = ` +
        `${w.eventsPerSecond.toFixed(0)} events/s; ` +
        `/ping serves ${pingPerSecond.toFixed(0)} req/s sequentially (ratio ` +
        `${(pingPerSecond / w.eventsPerSecond).toFixed(1)}× slower per event)\n`,
    );
  } finally {
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
