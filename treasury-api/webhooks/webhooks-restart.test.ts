/**
 * Restart in the middle of deliveries (docs/operations.md#health-shutdown-and-logs:
 * SIGTERM stops workers at a safe point). The background
 * workers run on a PGlite data folder exactly as the server starts them
 * (`startWorkers`); they are stopped while a slow loopback receiver is still
 * getting events, the database is closed and reopened, more events arrive,
 * and the workers start again. Every event must reach the receiver exactly
 * once: nothing lost, nothing duplicated.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { resolveConfig } from "../config";
import { openDatabase, queryRows, type Database } from "../db/client";
import * as s from "../db/schema";
import { CLIENTS, IDS, insertFixture } from "../test/harness";
import { startWorkers } from "../workers";
import { startLoopbackReceiver, type LoopbackReceiver } from "./loopback-receiver";
import { enqueueEvents } from "./outbox";

const dir = mkdtempSync(path.join(tmpdir(), "webhooks-restart-"));
const config = resolveConfig({ webhookPollMs: 5, webhookRetryScale: 0.000_001, allowPrivateWebhooks: true });
const secret = "whsec_restart-test-secret";
let rx: LoopbackReceiver;

beforeAll(async () => {
  rx = await startLoopbackReceiver();
  rx.secrets.set("endpoint", secret);
  rx.respond = () => ({ status: 200, delayMs: 15 });
});
afterAll(async () => {
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

async function emit(database: Database, n: number): Promise<string[]> {
  return enqueueEvents(
    database.db,
    Array.from({ length: n }, (_, i) => ({
      tenantId: IDS.tenant,
      companyId: IDS.companyA,
      type: "transaction.created" as const,
      data: { n: i },
    })),
  );
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

it("stopping the workers mid-delivery and starting again loses and repeats nothing", async () => {
  let database = await openDatabase({ dataDir: dir });
  await insertFixture(database);
  await database.db.insert(s.webhookEndpoints).values({
    id: "a0000000-0000-4000-8000-000000000001",
    clientId: CLIENTS.fullB.id,
    tenantId: IDS.tenant,
    url: `${rx.url}/restart`,
    events: ["transaction.created"],
    secret,
  });
  const first = await emit(database, 150);

  let workers = startWorkers({ database, config, logger: null });
  await waitFor(() => rx.received.length >= 40, 60_000);
  await workers.stop();
  await database.close();
  const beforeRestart = rx.received.length;
  expect(beforeRestart).toBeLessThan(first.length); // really stopped in the middle

  // Nothing is sent while the "server" is down.
  await new Promise((r) => setTimeout(r, 100));
  expect(rx.received.length).toBe(beforeRestart);

  database = await openDatabase({ dataDir: dir });
  const second = await emit(database, 30);
  workers = startWorkers({ database, config, logger: null });
  const all = [...first, ...second];
  await waitFor(() => rx.received.length >= all.length, 60_000);
  // Give a duplicate, if any, the chance to show up before counting.
  await new Promise((r) => setTimeout(r, 100));
  await workers.stop();

  const ids = rx.received.map((d) => d.eventId ?? "");
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual([...all].sort());
  expect(rx.received.every((d) => d.validFor.includes("endpoint") && d.fresh)).toBe(true);
  const [stats] = await queryRows<{ delivered: number; other: number; attempts: number; max_attempts: number }>(
    database.db,
    sql`select count(*) filter (where status = 'delivered')::int as delivered, count(*) filter (where status <>
      'delivered')::int as other,
               (select count(*)::int from webhook_delivery_attempts) as attempts, max(attempts)::int as max_attempts
        from webhook_deliveries`,
  );
  expect(stats).toEqual({ delivered: all.length, other: 0, attempts: all.length, max_attempts: 1 });
  await database.close();
}, 150_000);
