/**
 * Restart in the middle of bank processing: a file-backed
 * PGlite in a temp dir is closed after the take step, reopened, hit by a
 * crash inside the settle step, closed again, reopened, and the bank goes on.
 * Exactly one transaction per settled instruction and one status event per
 * change must come out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows, type Database } from "../db/client";
import { IDS, insertFixture } from "../test/harness";
import { approvedBatchDirect } from "../test/approved-batch";
import { bankVerdict, runBankOnce } from "./bank-simulator";

const dir = mkdtempSync(path.join(tmpdir(), "bank-restart-"));
let database: Database | null = null;

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function n(db: Database, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db.db, query);
  return Number(row?.n ?? 0);
}

describe("bank simulator across restarts (file-backed PGlite)", () => {
  it("loses nothing and does nothing twice", async () => {
    // The fixture's intraday points end at yesterday 23:45 UTC: the bank's own points are those from now on, which a
    // window of "the last hour" would mix with the fixture's when the test runs just after midnight.
    const startedAt = new Date().toISOString();
    const manual = { bankSpeed: "manual" as const };
    const instructions = Array.from({ length: 200 }, (_, i) => ({
      amount: `${1000 + i}.55`,
      currency: "NOK",
      creditor_name: i % 50 === 0 ? "REJECT Holdings" : `Creditor ${i}`,
      creditor_iban: "NO9386011117947",
      end_to_end_id: `RST-${i}`,
    }));
    const expectedSettled = instructions.filter(
      (i) => bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true).status === "settled",
    ).length;

    // First life: create, submit, approve twice, take.
    database = await openDatabase({ dataDir: dir });
    await insertFixture(database);
    const batch = { id: await approvedBatchDirect(database.db, instructions, ["alice", "bob"], "manual") };
    expect((await runBankOnce(database.db, manual, { maxSteps: 1 })).steps.map((s) => s.step)).toEqual(["take"]);
    await database.close();

    // Second life: the settle step crashes before commit; the process "dies".
    database = await openDatabase({ dataDir: dir });
    expect(
      await n(
        database,
        sql`select count(*)::int as n from payment_status_events where batch_id = ${batch.id} and status = 'accepted'`,
      ),
    ).toBe(200);
    await expect(
      runBankOnce(database.db, manual, {
        beforeCommit: ({ step }) => {
          if (step === "settle") throw new Error("power cut");
        },
      }),
    ).rejects.toThrow("power cut");
    await database.close();

    // Third life: the bank goes on and finishes; a further run finds nothing to do.
    database = await openDatabase({ dataDir: dir });
    const [status] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from payment_batches where id = ${batch.id}`,
    );
    expect(status?.status).toBe("processing");
    expect(await n(database, sql`select count(*)::int as n from transactions where source = 'bank-simulator'`)).toBe(0);
    const run = await runBankOnce(database.db, manual);
    expect(run.steps.map((s) => s.status)).toEqual(["partially_completed"]);
    expect((await runBankOnce(database.db, manual)).steps).toEqual([]);

    // Exactly one booking per settled instruction, one event per change, one webhook per event and booking.
    expect(await n(database, sql`select count(*)::int as n from transactions where source = 'bank-simulator'`)).toBe(
      expectedSettled,
    );
    expect(
      await n(
        database,
        sql`select count(*)::int as n from payment_instructions where batch_id = ${batch.id} and status = 'settled'
          and transaction_id is not null`,
      ),
    ).toBe(expectedSettled);
    expect(
      await n(
        database,
        sql`select count(distinct dedupe_key)::int as n from transactions where source = 'bank-simulator'`,
      ),
    ).toBe(expectedSettled);
    expect(
      await n(database, sql`select count(*)::int as n from payment_status_events where batch_id = ${batch.id}`),
    ).toBe(400);
    expect(
      await n(
        database,
        sql`select count(*)::int as n from (select instruction_id from payment_status_events where batch_id =
          ${batch.id} group by instruction_id having count(*) <> 2) x`,
      ),
    ).toBe(0);
    expect(
      await n(database, sql`select count(*)::int as n from webhook_events where type = 'payment.status.updated'`),
    ).toBe(400);
    expect(
      await n(database, sql`select count(*)::int as n from webhook_events where type = 'transaction.created'`),
    ).toBe(expectedSettled);
    expect(
      await n(
        database,
        sql`select count(*)::int as n from intraday_points where account_id = ${IDS.accountA1} and timestamp >=
          ${startedAt}::timestamptz`,
      ),
    ).toBe(1);
    // Three PGlite starts on disk: about 10 s on an idle machine, several times that under load.
  }, 120_000);
});
