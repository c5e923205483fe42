/**
 * The treasury-api's Prometheus metrics (prom-client), served by `GET /metrics`.
 *
 * Two registries, serialised one after the other:
 * - the process registry (`apiMetrics()`): counters and histograms the code
 *   records as things happen, plus Node's default metrics, kept on
 *   `globalThis` so a metric is never registered twice;
 * - one state registry per app (`stateRegistry(db)`): gauges read from the
 *   database when scraped, with one SQL query per scrape.
 *
 * Names and labels (documented in docs/operations.md#metrics):
 * - `treasury_api_requests_total{route,method,status}`: requests by route
 *   template (Hono's matched path, e.g. `/public/accounts/:id`; `unmatched`
 *   when no route matched), method and status.
 * - `treasury_api_request_duration_seconds{route,method}`: their latency.
 * - `treasury_api_idempotency_replays_total`: writes answered from the idempotency store.
 * - `treasury_api_webhook_delivery_failures_total{outcome}`: failed delivery
 *   attempts; `retrying` (another attempt is scheduled) or `failed` (the last one).
 * - `treasury_api_outbox_undispatched_events`, `treasury_api_outbox_pending_deliveries`:
 *   outbox depth (events not fanned out yet; deliveries waiting for a 2xx).
 * - `treasury_api_outbox_oldest_age_seconds`: age of the oldest event not yet delivered (0 when none).
 * - `treasury_api_bank_simulator_lag_seconds`: how long the most overdue bank step has been due (0 when none).
 * - `treasury_api_bank_simulator_last_run_timestamp_seconds`: when the bank worker last finished a pass.
 * - `treasury_api_bank_channel_pulls_total{outcome}`, `treasury_api_bank_channel_pushes_total{outcome}`: pulls of a
 *   bank connection and payment-file pushes, `ok` or `failed` (docs/bank-channels.md "Operations").
 * - `treasury_api_bank_channel_files_total{direction,result}`: files over bank channels; `in` with `imported`,
 *   `duplicate` or `failed`, `out` with `sent`.
 * - `treasury_api_bank_channel_pull_lag_seconds`: since the last successful pull of the active connection that
 *   waited longest (its creation when it never pulled; 0 when there is no active connection).
 * - `treasury_api_bank_channel_push_lag_seconds`: how long the oldest due payment file has waited to be sent (0 when none).
 * - `treasury_api_bank_connections_failing`: active connections whose last pull or push failed.
 * - `treasury_api_state_scrape_up`: 1 when the last scrape read the gauges above from the database, 0 when that
 *   query failed (the scrape then answers without them).
 */
import { sql } from "drizzle-orm";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { queryRows, type Db } from "../db/client";

/** Seconds; from 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createApiMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "treasury_api_" });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "treasury_api_requests_total",
      help: "HTTP requests by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: "treasury_api_request_duration_seconds",
      help: "HTTP request latency by route template and method",
      labelNames: ["route", "method"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    idempotencyReplays: new Counter({
      name: "treasury_api_idempotency_replays_total",
      help: "Write requests answered from the idempotency store (Idempotent-Replayed: true)",
      registers,
    }),
    stateScrapeUp: new Gauge({
      name: "treasury_api_state_scrape_up",
      help: "1 when the last scrape read the state gauges from the database, 0 when that query failed",
      registers,
    }),
    deliveryFailures: new Counter({
      name: "treasury_api_webhook_delivery_failures_total",
      help: "Failed webhook delivery attempts: retrying (another attempt is scheduled) or failed (given up)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    bankPulls: new Counter({
      name: "treasury_api_bank_channel_pulls_total",
      help: "Pulls of a bank connection's outbox: ok or failed",
      labelNames: ["outcome"] as const,
      registers,
    }),
    bankPushes: new Counter({
      name: "treasury_api_bank_channel_pushes_total",
      help: "Payment files pushed to a bank connection's inbox: ok or failed",
      labelNames: ["outcome"] as const,
      registers,
    }),
    bankFiles: new Counter({
      name: "treasury_api_bank_channel_files_total",
      help: "Files over bank channels: in (imported, duplicate, failed) and out (sent)",
      labelNames: ["direction", "result"] as const,
      registers,
    }),
  };
}

const g = globalThis as typeof globalThis & { __treasuryApiMetrics?: ReturnType<typeof createApiMetrics> };

/** The process's metric objects (created on first use). */
export function apiMetrics(): ReturnType<typeof createApiMetrics> {
  g.__treasuryApiMetrics ??= createApiMetrics();
  return g.__treasuryApiMetrics;
}

/** When the bank worker of each database last finished a pass (ms since the epoch). */
const bankRuns = new WeakMap<Db, number>();

/** Called by the bank worker after each pass. */
export function noteBankRun(db: Db, at: number = Date.now()): void {
  bankRuns.set(db, at);
}

/** What the state gauges show, read in one query. */
export interface OutboxAndBankState {
  undispatched: number;
  pendingDeliveries: number;
  oldestAgeSeconds: number;
  bankLagSeconds: number;
  /** Seconds since the last successful pull of the stalest active bank connection (0: none). */
  channelPullLagSeconds: number;
  /** Seconds the oldest due, unsent payment file has waited (0: none). */
  channelPushLagSeconds: number;
  /** Active bank connections whose last pull or push failed. */
  failingConnections: number;
}

/**
 * Reads outbox depth and age, the bank simulator's lag and the bank channels' lag in one statement.
 * Each part uses an index: `webhook_events_undispatched`, `webhook_deliveries_due`, `payment_batches_bank`.
 */
export async function readOutboxAndBankState(db: Db): Promise<OutboxAndBankState> {
  const [row] = await queryRows<{
    undispatched: number;
    pending: number;
    age: number | null;
    lag: number | null;
    pull_lag: number | null;
    push_lag: number | null;
    failing: number;
  }>(
    db,
    sql`select
      (select count(*) from webhook_events where dispatched_at is null)::int as undispatched,
      (select count(*) from webhook_deliveries where status = 'pending')::int as pending,
      extract(epoch from now() - least(
        (select min(created_at) from webhook_events where dispatched_at is null),
        (select min(e.created_at) from webhook_deliveries d join webhook_events e on e.id = d.event_id
          where d.status = 'pending')))::float8 as age,
      extract(epoch from now() - (select min(coalesce(bank_next_step_at, updated_at)) from payment_batches
        where status in ('approved', 'processing')
          and (bank_next_step_at is null or bank_next_step_at <= now())))::float8 as lag,
      extract(epoch from now() - (select min(coalesce(last_pull_ok_at, created_at)) from bank_connections
        where active))::float8 as pull_lag,
      extract(epoch from now() - (select min(greatest(created_at, due_date::timestamptz)) from bank_channel_outbox
        where sent_at is null and due_date <= current_date))::float8 as push_lag,
      (select count(*) from bank_connections where active and consecutive_failures > 0)::int as failing`,
  );
  return {
    undispatched: Number(row?.undispatched ?? 0),
    pendingDeliveries: Number(row?.pending ?? 0),
    oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)),
    bankLagSeconds: Math.max(0, Number(row?.lag ?? 0)),
    channelPullLagSeconds: Math.max(0, Number(row?.pull_lag ?? 0)),
    channelPushLagSeconds: Math.max(0, Number(row?.push_lag ?? 0)),
    failingConnections: Number(row?.failing ?? 0),
  };
}

/**
 * The per-app registry of gauges read from `db` at scrape time. The gauges
 * share one query: the first to collect starts it, the others reuse it for 1 s.
 */
export function stateRegistry(db: Db): Registry {
  const registry = new Registry();
  let last: { at: number; state: Promise<OutboxAndBankState> } | null = null;
  const state = () => {
    if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), state: readOutboxAndBankState(db) };
    return last.state;
  };
  const gauge = (name: string, help: string, read: (s: OutboxAndBankState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(read(await state()));
      },
    });
  gauge(
    "treasury_api_outbox_undispatched_events",
    "Outbox events not yet fanned out to deliveries",
    (s) => s.undispatched,
  );
  gauge("treasury_api_outbox_pending_deliveries", "Webhook deliveries waiting for a 2xx", (s) => s.pendingDeliveries);
  gauge(
    "treasury_api_outbox_oldest_age_seconds",
    "Age of the oldest event not yet delivered",
    (s) => s.oldestAgeSeconds,
  );
  gauge(
    "treasury_api_bank_simulator_lag_seconds",
    "How long the most overdue bank step has been due",
    (s) => s.bankLagSeconds,
  );
  gauge(
    "treasury_api_bank_channel_pull_lag_seconds",
    "Seconds since the last successful pull of the active bank connection that waited longest",
    (s) => s.channelPullLagSeconds,
  );
  gauge(
    "treasury_api_bank_channel_push_lag_seconds",
    "How long the oldest due payment file has waited to be sent to its bank",
    (s) => s.channelPushLagSeconds,
  );
  gauge(
    "treasury_api_bank_connections_failing",
    "Active bank connections whose last pull or push failed",
    (s) => s.failingConnections,
  );
  new Gauge({
    name: "treasury_api_bank_simulator_last_run_timestamp_seconds",
    help: "When the bank simulator worker last finished a pass (0: not yet, or no worker)",
    registers: [registry],
    collect() {
      this.set((bankRuns.get(db) ?? 0) / 1000);
    },
  });
  return registry;
}
