/**
 * The bank-and-webhook scenario shared by the real-process tests (crash.test.ts: kill -9 between lives;
 * workers.test.ts: two server processes on one PostgreSQL): six approved batches of ten instructions due at an
 * `instant` bank, one webhook endpoint of the Form B client for every event kind, and the counts that say whether a
 * batch was processed twice or an event lost (docs/architecture.md#idempotency and #webhooks).
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "@treasury/contract/webhooks";
import { openDatabase, queryRows, type Database } from "../db/client";
import { webhookEndpoints } from "../db/schema";
import { sealSecret } from "../lib/secret-box";
import { approvedBatchDirect } from "./approved-batch";
import type { ChildTarget } from "./child-server";
import { CLIENTS, IDS, insertFixture } from "./harness";

export const FINAL = ["completed", "partially_completed", "failed"];
export const BATCHES = 6;
export const PER_BATCH = 10;

/** Runs `fn` on a database opened on `target` (two connections for PostgreSQL), closed afterwards. */
export async function withDatabase<T>(target: ChildTarget, fn: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase("url" in target ? { url: target.url, poolSize: 2 } : { dataDir: target.dataDir });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** The `n` column of a one-row count query. */
export async function n(db: Database, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db.db, query);
  return Number(row?.n ?? -1);
}

/** Fixture, six approved batches due at the bank, one endpoint for every event kind at `url` (secret sealed with `key`). */
export async function prepare(db: Database, url: string, secret: string, key: Buffer): Promise<string> {
  await insertFixture(db);
  for (let b = 0; b < BATCHES; b++) {
    const instructions = Array.from({ length: PER_BATCH }, (_, i) => ({
      amount: `${100 + b * 10 + i}.25`,
      currency: "NOK",
      creditor_name: i === 3 ? "REJECT Holdings" : `Creditor ${b}-${i}`,
      creditor_iban: "NO9386011117947",
      end_to_end_id: `CRASH-${b}-${i}`,
    }));
    await approvedBatchDirect(db.db, instructions, ["crash-approver"], "instant");
  }
  const id = crypto.randomUUID();
  await db.db.insert(webhookEndpoints).values({
    id,
    clientId: CLIENTS.fullB.id,
    tenantId: IDS.tenant,
    url,
    events: [...WEBHOOK_EVENT_TYPES],
    secret: sealSecret(key, secret),
  });
  return id;
}

export /** Waits (bounded) until the API shows every batch final and no delivery pending, twice in a row 700 ms apart. */
async function untilQuiet(base: string, token: string, endpointId: string, ms: number): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA };
  const until = Date.now() + ms;
  let quietRounds = 0;
  while (quietRounds < 2) {
    if (Date.now() > until) throw new Error("the API did not finish the batches and deliveries in time");
    await new Promise((r) => setTimeout(r, 700));
    const batches = (await (await fetch(`${base}/public/payments/batches?page_size=100`, { headers })).json()) as {
      results: { status: string }[];
    };
    const pending = (await (
      await fetch(`${base}/public/webhooks/${endpointId}/deliveries?status=pending&page_size=1`, { headers })
    ).json()) as { count: number };
    const quiet =
      batches.results.length === BATCHES &&
      batches.results.every((b) => FINAL.includes(b.status)) &&
      pending.count === 0;
    quietRounds = quiet ? quietRounds + 1 : 0;
  }
}

/**
 * What the processing left behind: batches not final, batches, end-to-end ids booked twice by the bank, bank debits,
 * settled instructions, every outbox event id, and the endpoint's deliveries (all; not delivered).
 */
export async function processingOutcome(db: Database, endpointId: string) {
  const eventIds = (await queryRows<{ id: string }>(db.db, sql`select id::text as id from webhook_events`)).map(
    (r) => r.id,
  );
  return {
    stuck: await n(
      db,
      sql`select count(*)::int as n from payment_batches where status not in ('completed',
        'partially_completed', 'failed')`,
    ),
    batches: await n(db, sql`select count(*)::int as n from payment_batches`),
    doubleBooked: await n(
      db,
      sql`select count(*)::int as n from (select end_to_end_id from transactions where source =
        'bank-simulator' group by 1 having count(*) > 1) d`,
    ),
    debits: await n(
      db,
      sql`select count(*)::int as n from transactions where source = 'bank-simulator' and direction = 'debit'`,
    ),
    settled: await n(db, sql`select count(*)::int as n from payment_instructions where status = 'settled'`),
    eventIds,
    notDelivered: await n(
      db,
      sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId}::uuid and
        status <> 'delivered'`,
    ),
    deliveries: await n(
      db,
      sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId}::uuid`,
    ),
  };
}

/**
 * Asserts that the scenario ran to the end with every batch processed once and every event delivered: all
 * {@link BATCHES} batches final, none booked twice, one bank debit per settled instruction, more events than
 * instructions, each event id among `receivedIds` (the event ids the receiver saw) and one delivered delivery per event.
 */
export function expectProcessedOnce(
  result: Awaited<ReturnType<typeof processingOutcome>>,
  receivedIds: ReadonlySet<string | undefined>,
): void {
  expect(result.batches).toBe(BATCHES);
  expect(result.stuck).toBe(0);
  expect(result.doubleBooked).toBe(0);
  expect(result.debits).toBe(result.settled);
  expect(result.settled).toBeGreaterThan(0);
  expect(result.eventIds.length).toBeGreaterThan(BATCHES * PER_BATCH);
  expect(result.eventIds.filter((id) => !receivedIds.has(id))).toEqual([]);
  expect(result.deliveries).toBe(result.eventIds.length);
  expect(result.notDelivered).toBe(0);
}
