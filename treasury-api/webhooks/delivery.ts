/**
 * The webhook delivery worker (docs/treasury-api.md#webhooks; docs/architecture.md#webhooks, "Scaling past
 * one machine"). One pass (`runWebhooksOnce`) does:
 *
 * 1. fan-out: undispatched outbox rows (`webhook_events`) become one
 *    `webhook_deliveries` row per endpoint that should get them — active,
 *    subscribed to the type, of a client that can see the event's company
 *    (Form B: a linked company; Form A: the endpoint's tenant) — and are marked
 *    dispatched, in one transaction (`FOR UPDATE SKIP LOCKED`, so instances
 *    never fan out the same event twice);
 * 2. delivery: due deliveries are claimed (`FOR UPDATE SKIP LOCKED` plus a
 *    lease in `locked_until`), POSTed signed (`X-Service-Signature`,
 *    `X-Service-Event-Id`) to targets the policy allows (target-policy.ts,
 *    checked again at connect time with the address pinned), never following
 *    a redirect (a 3xx is a failure), with a timeout (2xx within 10 s is
 *    success); every attempt is recorded in `webhook_delivery_attempts`. A
 *    failure is retried after 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h
 *    (× `webhookRetryScale`, ± 20 % jitter); after the 8th attempt the
 *    delivery is `failed`.
 *
 * A stop request is honoured between deliveries: claimed deliveries that were
 * not started are released, so a restart loses and repeats nothing.
 */
import { sql } from "drizzle-orm";
import type { AppConfig } from "../config";
import { queryRows, type Db, type DbOrTx } from "../db/client";
import { webhookDeliveryAttempts } from "../db/schema";
import { failpoint } from "../lib/failpoints";
import { apiMetrics } from "../lib/metrics";
import { openSecret } from "../lib/secret-box";
import { newId } from "../lib/secrets";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from "./signing";
import { TARGET_NOT_ALLOWED, TargetRefusedError } from "./target-policy";
import { DeliveryTimeoutError, webhookTransport, type TransportSettings } from "./transport";

/** Retry delays after attempt 1, 2, … 7 (ms, before scaling and jitter). */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000] as const;
/** Attempts in all: the first plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface RunOptions {
  /** Asked between deliveries; when true, unstarted claims are released and the pass ends. */
  shouldStop?: () => boolean;
  /** Deliveries claimed per round (default 100). */
  batchSize?: number;
  /** Deliveries in flight at once (default 16). */
  concurrency?: number;
  /** Rounds of claim-and-deliver in one pass while work is due (default 20). */
  maxRounds?: number;
}

export interface RunResult {
  dispatched: number;
  attempted: number;
  delivered: number;
  failed: number;
}

interface ClaimedDelivery {
  id: string;
  event_id: string;
  attempts: number;
  payload: { id: string; type: string; created_at: string; data: unknown };
  url: string;
  active: boolean;
  secret: string;
  previous_secret: string | null;
  previous_valid: boolean;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Delay before the next attempt after `attempt` failures (ms), scaled and
 * jittered by ±20 %. `random` is in [0, 1).
 */
export function retryDelayMs(attempt: number, scale: number, random: number = Math.random()): number {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempt, 1), RETRY_DELAYS_MS.length) - 1] ?? 0;
  return base * scale * (0.8 + 0.4 * random);
}

/** The exact bytes POSTed for an outbox payload: `{ id, type, created_at, data }` in that order. */
export function deliveryBody(payload: ClaimedDelivery["payload"]): string {
  return JSON.stringify({ id: payload.id, type: payload.type, created_at: payload.created_at, data: payload.data });
}

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * Fans out up to `limit` undispatched events to deliveries. Returns the number
 * of events dispatched (an event nobody subscribed to is dispatched to nobody).
 */
export async function dispatchEvents(db: Db, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`select id from webhook_events where dispatched_at is null order by created_at, id limit ${limit} for
        update skip locked`,
    );
    if (rows.length === 0) return 0;
    const ids = idList(rows.map((r) => r.id));
    await tx.execute(sql`
      insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
      select gen_random_uuid(), e.id, w.id, 'pending', 0, now(), now()
      from webhook_events e
      join webhook_endpoints w on w.tenant_id = e.tenant_id and w.active and e.type = any(w.events)
      join oauth_clients c on c.id = w.client_id
      where e.id in (${ids})
        and (c.form = 'A' or e.company_id is null
             or exists (select 1 from oauth_client_companies cc where cc.client_id = c.id and cc.company_id =
               e.company_id))
      on conflict (event_id, endpoint_id) do nothing`);
    await tx.execute(sql`update webhook_events set dispatched_at = now() where id in (${ids})`);
    return rows.length;
  });
}

/**
 * Claims up to `limit` due deliveries with a lease of `leaseSeconds`, with what is needed to send them (the signing
 * secrets decrypted with `secretKey`; a wrong key throws SecretKeyError and the leases run out untouched).
 */
async function claimDue(
  db: DbOrTx,
  secretKey: Buffer,
  limit: number,
  leaseSeconds: number,
  onlyId?: string,
): Promise<ClaimedDelivery[]> {
  const which = onlyId
    ? sql`d.id = ${onlyId}::uuid`
    : sql`d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())`;
  const rows = await queryRows<ClaimedDelivery>(
    db,
    sql`
    with due as (
      select d.id from webhook_deliveries d
      where ${which}
      order by d.next_attempt_at, d.id
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d
    set locked_until = now() + make_interval(secs => ${leaseSeconds})
    from due, webhook_events e, webhook_endpoints w
    where d.id = due.id and e.id = d.event_id and w.id = d.endpoint_id
    returning d.id, d.event_id, d.attempts, e.payload, w.url, w.active, w.secret, w.previous_secret,
              coalesce(w.previous_secret_expires_at > now(), false) as previous_valid`,
  );
  return rows.map((d) => ({
    ...d,
    secret: openSecret(secretKey, d.secret),
    previous_secret: d.previous_secret === null ? null : openSecret(secretKey, d.previous_secret),
  }));
}

/**
 * POSTs one signed delivery through the config's webhook transport (target
 * policy checked at connect time, address pinned). Never throws: network
 * errors, timeouts and refused targets are outcomes; a refused target is
 * recorded as the generic "target not allowed", never with its cause.
 */
export async function sendDelivery(
  d: ClaimedDelivery,
  config: Pick<AppConfig, "webhookTimeoutMs"> & TransportSettings,
): Promise<AttemptOutcome> {
  const body = deliveryBody(d.payload);
  const secrets = d.previous_secret && d.previous_valid ? [d.secret, d.previous_secret] : [d.secret];
  const timeoutMs = config.webhookTimeoutMs;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const headers = {
      "content-type": "application/json",
      "user-agent": "treasury-api-webhooks/1",
      [SIGNATURE_HEADER]: signatureHeader(secrets, body),
      [EVENT_ID_HEADER]: d.payload.id,
      "X-Service-Delivery-Id": d.id,
      "X-Service-Delivery-Attempt": String(d.attempts + 1),
    };
    const status = await webhookTransport(config).post(d.url, headers, body, timeoutMs);
    const ok = status >= 200 && status < 300;
    return {
      ok,
      statusCode: status,
      error: ok ? null : status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`,
      durationMs: elapsed(),
    };
  } catch (err) {
    if (err instanceof TargetRefusedError)
      return { ok: false, statusCode: null, error: TARGET_NOT_ALLOWED, durationMs: elapsed() };
    const message = err instanceof DeliveryTimeoutError ? `no response within ${timeoutMs} ms` : describeError(err);
    return { ok: false, statusCode: null, error: message, durationMs: elapsed() };
  }
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const code =
      cause && typeof cause === "object" && "code" in cause ? String((cause as { code: unknown }).code) : null;
    return (code ? `${err.message} (${code})` : err.message).slice(0, 500);
  }
  return String(err).slice(0, 500);
}

type NextStatus = "delivered" | "pending" | "failed";

/**
 * Records attempts and moves their deliveries on (delivered, retry later, or
 * failed), all in one transaction with two statements however many there are:
 * a worker round sends many deliveries concurrently and then records them at
 * once, which keeps the database work per event small.
 */
async function recordAttempts(
  db: Db,
  done: { d: ClaimedDelivery; outcome: AttemptOutcome }[],
  scale: number,
): Promise<NextStatus[]> {
  if (done.length === 0) return [];
  const rows = done.map(({ d, outcome }) => {
    const attempt = d.attempts + 1;
    const status: NextStatus = outcome.ok ? "delivered" : attempt >= MAX_ATTEMPTS ? "failed" : "pending";
    return {
      d,
      outcome,
      attempt,
      status,
      delaySeconds: status === "pending" ? retryDelayMs(attempt, scale) / 1000 : null,
    };
  });
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.d.id}::uuid, ${r.attempt}::int, ${r.status}::text, ${r.delaySeconds}::float8,
          ${r.outcome.statusCode}::int, ${r.outcome.error}::text)`,
    ),
    sql`, `,
  );
  await db.transaction(async (tx) => {
    const updated = await queryRows<{ id: string }>(
      tx,
      sql`
      update webhook_deliveries d set
        attempts = v.attempt,
        status = v.status,
        next_attempt_at = case when v.status = 'pending' then now() + make_interval(secs => v.delay) end,
        locked_until = null,
        last_status_code = v.code,
        last_error = v.err,
        delivered_at = case when v.status = 'delivered' then now() end
      from (values ${values}) as v(id, attempt, status, delay, code, err)
      where d.id = v.id
      returning d.id::text as id`,
    );
    // An endpoint deleted meanwhile took its deliveries with it: nothing to record for those.
    const alive = new Set(updated.map((u) => u.id));
    const attempts = rows
      .filter((r) => alive.has(r.d.id))
      .map((r) => ({
        id: newId(),
        deliveryId: r.d.id,
        attempt: r.attempt,
        statusCode: r.outcome.statusCode,
        error: r.outcome.error,
        durationMs: r.outcome.durationMs,
      }));
    if (attempts.length) await tx.insert(webhookDeliveryAttempts).values(attempts);
  });
  for (const r of rows)
    if (r.status !== "delivered")
      apiMetrics().deliveryFailures.inc({ outcome: r.status === "failed" ? "failed" : "retrying" });
  return rows.map((r) => r.status);
}

/** Closes a delivery whose endpoint was deactivated after the fan-out (no request is sent). */
async function abandon(db: Db, d: ClaimedDelivery): Promise<void> {
  await db.execute(
    sql`update webhook_deliveries set status = 'failed', locked_until = null, next_attempt_at = null, last_error =
      'endpoint inactive' where id = ${d.id}::uuid`,
  );
}

async function release(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.execute(sql`update webhook_deliveries set locked_until = null where id in (${idList(ids)})`);
}

/** Claims, sends and records one specific delivery now (used by POST /webhooks/{id}/test). */
export async function deliverNow(db: Db, config: AppConfig, deliveryId: string): Promise<void> {
  const [d] = await claimDue(db, config.secretKey, 1, leaseSeconds(config), deliveryId);
  if (!d) return;
  await recordAttempts(db, [{ d, outcome: await sendDelivery(d, config) }], config.webhookRetryScale);
}

const leaseSeconds = (config: AppConfig) => Math.ceil(config.webhookTimeoutMs / 1000) + 30;

/**
 * One pass of the worker: fan out every undispatched event, then claim and
 * deliver due deliveries (several rounds while work is due). Safe to run on
 * several instances at once. Returns what it did.
 */
export async function runWebhooksOnce(db: Db, config: AppConfig, opts: RunOptions = {}): Promise<RunResult> {
  const shouldStop = opts.shouldStop ?? (() => false);
  const batchSize = opts.batchSize ?? 100;
  const concurrency = opts.concurrency ?? 16;
  const result: RunResult = { dispatched: 0, attempted: 0, delivered: 0, failed: 0 };
  for (;;) {
    const n = await dispatchEvents(db);
    result.dispatched += n;
    if (n < 500 || shouldStop()) break;
  }
  for (let round = 0; round < (opts.maxRounds ?? 20) && !shouldStop(); round++) {
    const claimed = await claimDue(db, config.secretKey, batchSize, leaseSeconds(config));
    if (claimed.length === 0) break;
    const queue = [...claimed];
    const done: { d: ClaimedDelivery; outcome: AttemptOutcome }[] = [];
    const runner = async () => {
      for (let d = queue.shift(); d; d = queue.shift()) {
        if (shouldStop()) {
          queue.unshift(d);
          return;
        }
        if (!d.active) {
          await abandon(db, d);
          continue;
        }
        done.push({ d, outcome: await sendDelivery(d, config) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, runner));
    if (done.length > 0) failpoint("webhooks.after-send");
    // Recorded after the round's requests finished (a stop request waits for this too).
    for (const status of await recordAttempts(db, done, config.webhookRetryScale)) {
      result.attempted++;
      if (status === "delivered") result.delivered++;
      if (status === "failed") result.failed++;
    }
    await release(
      db,
      queue.map((d) => d.id),
    );
    if (claimed.length < batchSize) break;
  }
  return result;
}
