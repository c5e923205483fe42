/**
 * The same migrations and the same API on real PostgreSQL:
 * a throw-away cluster on loopback, the app through `DATABASE_URL`-style
 * options, the fixture, and a few calls that exercise numeric sums, the
 * aggregate trigger, upserts and the idempotency claim. Skipped (and says so)
 * only when PostgreSQL is not installed; `.ci/run` installs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createApp, type TreasuryApp } from "../app";
import { openDatabase, queryRows, type Database } from "../db/client";
import { findPostgresBin, startTempPostgres, type TempPostgres } from "@treasury/test-support/temp-postgres";
import { IDS, CLIENTS, insertFixture } from "./harness";
import { clientToken } from "./loopback";
import { hostileTransactions } from "./hostile-transactions";
import * as schema from "../db/schema";
import { listTransactions, listTransactionsJson } from "../db/repos/ledger";

const available = findPostgresBin() !== null;
if (!available) console.warn("postgres.test.ts: PostgreSQL not installed; skipped");

/** A batch body for company A of one 10.00 NOK instruction to `creditorName` with end-to-end id `endToEndId`. */
const oneInstructionBatch = (creditorName: string, endToEndId: string) => ({
  company_id: IDS.companyA,
  currency: "NOK",
  instructions: [
    {
      amount: "10.00",
      currency: "NOK",
      creditor_name: creditorName,
      creditor_iban: "NO9386011117947",
      end_to_end_id: endToEndId,
    },
  ],
});

describe.runIf(available)("on PostgreSQL", () => {
  let pg: TempPostgres;
  let database: Database;
  let app: TreasuryApp;
  let token = "";

  beforeAll(async () => {
    pg = await startTempPostgres();
    database = await openDatabase({ url: pg.url });
    await insertFixture(database);
    app = createApp({ database });
    token = await clientToken(app, CLIENTS.fullB.clientId, CLIENTS.fullB.secret);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await pg?.stop();
  });

  const call = (method: string, path: string, init: { json?: unknown; idem?: string } = {}) =>
    app.request(`/public${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "x-company-id": IDS.companyA,
        ...(init.json ? { "content-type": "application/json" } : {}),
        ...(init.idem ? { "idempotency-key": init.idem } : {}),
      },
      body: init.json ? JSON.stringify(init.json) : undefined,
    });

  it("migrations are applied and readiness reports them", async () => {
    const res = await app.request("/readyz");
    expect(await res.json()).toMatchObject({ status: "ready" });
  });

  it("lists with exact counts from the aggregate trigger", async () => {
    const body = (await (await call("GET", "/transactions?page_size=5&direction=debit")).json()) as {
      count: number;
      results: { amount: string }[];
    };
    expect(body.count).toBe(40);
    expect(body.results[0]?.amount).toMatch(/^\d+\.50$/);
  });

  it("transaction lists serialised by PostgreSQL are the Node path's bytes (hostile rows, pages, filters)", async () => {
    const owner = { tenantId: IDS.tenant, companyId: IDS.companyC, accountId: IDS.accountC1 };
    await database.db.insert(schema.transactions).values(hostileTransactions("62000000", owner));
    const scope = { tenantId: IDS.tenant, companyIds: [IDS.companyC] };
    for (const f of [{}, { currency: "JPY" }, { accountId: IDS.accountC1, direction: "debit" as const }])
      for (const page of [
        { limit: 1000, offset: 0 },
        { limit: 5, offset: 5 },
        { limit: 5, offset: 10_000 },
      ]) {
        const old = await listTransactions(database.db, scope, f, page, true);
        const now = await listTransactionsJson(database.db, scope, f, page, true);
        expect(now.json).toBe(JSON.stringify(old.rows));
        expect(now.count).toBe(old.count);
      }
    const res = await app.request("/public/transactions?page_size=1000", {
      headers: { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA },
    });
    expect(res.headers.get("content-type")).toBe("application/json");
  });

  it("idempotency claim: a parallel burst of one key creates one batch, every success carries its id", async () => {
    const count = async () =>
      Number(
        (
          (await database.db.execute(sql`SELECT count(*)::int AS n FROM payment_batches`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]?.n,
      );
    const before = await count();
    const json = oneInstructionBatch("Burst AS", "PG-BURST-1");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call("POST", "/payments/batches", { json, idem: "pg-burst" })),
    );
    const statuses = results.map((r) => r.status);
    // The first claim runs; the others wait on it and replay (201) or find it still running (409 in_progress).
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    const created = await Promise.all(
      results.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: string }).id),
    );
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it(
    "a burst whose claims go stale at once still creates one batch: a running request's key is never taken " + "over",
    async () => {
      // Lock time 0: every claim is "stale" the moment it is made, so only the row lock of the running transaction
      // (and the claim token) keep the other requests from running the handler a second time.
      const impatient = createApp({ database, config: { idempotencyLockSeconds: 0 } });
      const json = oneInstructionBatch("Stale Claim AS", "PG-STALE-1");
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          impatient.request("/public/payments/batches", {
            method: "POST",
            headers: {
              authorization: `Bearer ${token}`,
              "x-company-id": IDS.companyA,
              "content-type": "application/json",
              "idempotency-key": "pg-stale-burst",
            },
            body: JSON.stringify(json),
          }),
        ),
      );
      expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      const created = results.filter((r) => r.status === 201);
      expect(created.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM payment_instructions WHERE end_to_end_id = 'PG-STALE-1'`,
      );
      expect(row?.n).toBe(1);
    },
  );

  it("survives the server ending an idle connection: reported once, the next query reconnects", async () => {
    const dropped: string[] = [];
    const second = await openDatabase({ url: pg.url, poolSize: 2, onIdleError: (err) => dropped.push(err.message) });
    try {
      await second.exec("SELECT 1"); // one idle connection in the pool now
      await database.exec(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND application_name ` +
          `= '' AND datname = 'postgres' AND backend_type = 'client backend' AND state = 'idle' AND query = 'SELECT 1'`,
      );
      await expect.poll(() => dropped.length, { timeout: 5_000 }).toBe(1);
      expect(dropped[0]).toMatch(/terminat/i);
      await second.exec("SELECT 1"); // a fresh connection
    } finally {
      await second.close();
    }
  });

  it("close() returns only once every connection is gone from the server", async () => {
    const third = await openDatabase({ url: pg.url, poolSize: 4 });
    await Promise.all(Array.from({ length: 4 }, () => third.exec("SELECT pg_sleep(0.05), 'close-probe'")));
    await third.close();
    const rows = await database.db.execute(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%close-probe%' AND pid <> pg_backend_pid()`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });
});
