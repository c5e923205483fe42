/**
 * kill -9 of the API process during a pull (file imported, not committed) and during a push (file uploaded, not
 * marked sent), over SFTP to a local sshd (docs/bank-channels.md "Exactly once"): after restarts every received
 * file is imported once and the batch's payment file is in the bank's inbox once. The API runs as a child process
 * (treasury-api/test/child-server.ts) on a PGlite folder; between runs the test ends the dead process's leases, as
 * their expiry would.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { sshdSkipReason, startTempSshd, type TempSshd } from "@treasury/test-support/temp-sshd";
import { openDatabase } from "../db/client";
import { accounts, paymentBatches, paymentInstructions } from "../db/schema";
import { newId } from "../lib/secrets";
import { buildCamt } from "../test/camt053-builder";
import { startChildServer } from "../test/child-server";
import { newTenant } from "../test/import-db";
import { createConnection } from "./connections";
import { enqueueBatchPush, pushFileName } from "./exchange";

const skip = sshdSkipReason();
if (skip) console.log(`channel crash tests skipped: ${skip}`);

const KEY = randomBytes(32);
const TODAY = new Date().toISOString().slice(0, 10);
const ENTRIES = 25;

describe.skipIf(skip !== null)("bank channel across kill -9 (SFTP, PGlite)", () => {
  let sshd: TempSshd;
  let dataDir: string;
  let batchId: string;

  const withDb = async <T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> => {
    const database = await openDatabase({ dataDir });
    try {
      return await fn(database);
    } finally {
      await database.close();
    }
  };
  const count = (q: ReturnType<typeof sql>) =>
    withDb(async (d) => Number(((await d.db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0]?.n));
  const endLeases = () =>
    withDb(async (d) => {
      await d.db.execute(sql`update bank_connections set lease_until = null, next_pull_at = null`);
      await d.db.execute(sql`update bank_channel_outbox set lease_until = null`);
    });
  const run = async (failpoint?: string) => {
    const child = await startChildServer(
      { dataDir },
      { failpoint, env: { TREASURY_API_SECRET_KEY: KEY.toString("hex") } },
    );
    if (failpoint) {
      const end = await Promise.race([child.exited, new Promise<null>((r) => setTimeout(() => r(null), 90_000))]);
      if (end === null) await child.kill();
      expect(end?.signal, child.output().slice(-1500)).toBe("SIGKILL");
    } else {
      // Two worker ticks (every 5 s) are enough for one pull and one push.
      await new Promise((r) => setTimeout(r, 14_000));
      await child.stop();
    }
  };

  beforeAll(async () => {
    sshd = await startTempSshd();
    dataDir = mkdtempSync(path.join(tmpdir(), "treasury-channel-crash-"));
    batchId = newId();
    await withDb(async (database) => {
      const t = await newTenant(database);
      const accountId = newId();
      await database.db.insert(accounts).values({
        id: accountId,
        tenantId: t.tenantId,
        companyId: t.companyId,
        bankId: "DNBANOKK",
        externalRef: "NO9386011117947",
        name: "Operating NOK",
        currency: "NOK",
        bankName: "DNB",
      });
      await createConnection(
        database.db,
        { tenantId: t.tenantId, companyId: t.companyId },
        {
          bank_name: "DNB",
          account_ids: [accountId],
          after_import: "leave",
          pull_interval_seconds: 10,
          active: true,
          channel: {
            channel: "sftp",
            host: "127.0.0.1",
            port: sshd.port,
            username: sshd.username,
            private_key: sshd.privateKey,
            host_key_fingerprint: sshd.hostKeyFingerprint,
            inbox: path.join(sshd.root, "inbox"),
            outbox: path.join(sshd.root, "outbox"),
          },
        },
        KEY,
        "admin",
      );
      await database.db.insert(paymentBatches).values({
        id: batchId,
        tenantId: t.tenantId,
        companyId: t.companyId,
        createdByClientId: newId(),
        initiator: "tester",
        currency: "NOK",
        status: "approved",
        totalAmount: "99.00",
        instructionCount: 1,
        requestedExecutionDate: TODAY,
        debtorAccountId: accountId,
      });
      await database.db.insert(paymentInstructions).values({
        id: newId(),
        batchId,
        tenantId: t.tenantId,
        companyId: t.companyId,
        position: 0,
        amount: "99.00",
        currency: "NOK",
        creditorName: "Supplier AS",
        creditorIban: "NO8330001234567",
        endToEndId: "E2E-CRASH",
      });
      const [batch] = await database.db
        .select()
        .from(paymentBatches)
        .where(sql`id = ${batchId}`);
      if (!batch) throw new Error("batch not stored");
      await database.db.transaction((tx) => enqueueBatchPush(tx, batch, TODAY));
    });
    writeFileSync(
      path.join(sshd.root, "outbox", "stmt.xml"),
      buildCamt({
        version: "08",
        message: "camt.054",
        messageId: "CRASH-1",
        createdAt: `${TODAY}T06:00:00+00:00`,
        statements: [
          {
            id: "N-1",
            createdAt: `${TODAY}T06:00:00+00:00`,
            account: { iban: "NO9386011117947", currency: "NOK" },
            balances: [],
            entries: Array.from({ length: ENTRIES }, (_, i) => ({
              amount: "5.00",
              currency: "NOK",
              direction: "credit" as const,
              booked: TODAY,
              value: TODAY,
              entryRef: `C-${i}`,
            })),
          },
        ],
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await sshd?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("imports the file once and delivers the payment file once across two kills", async () => {
    await run("channels.pull.before-commit");
    expect(await count(sql`select count(*)::int as n from transactions`)).toBe(0);
    await endLeases();
    await run("channels.push.after-upload");
    expect(await count(sql`select count(*)::int as n from transactions`)).toBe(ENTRIES);
    expect(await count(sql`select count(*)::int as n from bank_channel_outbox where sent_at is not null`)).toBe(0);
    expect(readdirSync(path.join(sshd.root, "inbox"))).toEqual([pushFileName(batchId)]);
    const uploaded = statSync(path.join(sshd.root, "inbox", pushFileName(batchId))).mtimeMs;
    await endLeases();
    await run();
    expect(await count(sql`select count(*)::int as n from transactions`)).toBe(ENTRIES);
    expect(await count(sql`select count(*)::int as n from bank_connection_files where direction = 'in'`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from bank_channel_outbox where sent_at is not null`)).toBe(1);
    expect(readdirSync(path.join(sshd.root, "inbox"))).toEqual([pushFileName(batchId)]);
    // Found there after the crash, not uploaded a second time.
    expect(statSync(path.join(sshd.root, "inbox", pushFileName(batchId))).mtimeMs).toBe(uploaded);
  }, 400_000);
});
