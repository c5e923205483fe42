/**
 * Bank channels over a real OpenSSH server on loopback (docs/bank-channels.md): pinned host key, pull imports
 * each file once (listed again, renamed), a failing file is kept aside without blocking the others, unsafe names
 * are never opened, a dropped connection mid-transfer records nothing, and a push after a crash between upload
 * and mark does not upload again. One PGlite database for the file.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { sftpChannelOf, sshdSkipReason, startTempSshd, type TempSshd } from "@treasury/test-support/temp-sshd";
import { openDatabase, type Database } from "../db/client";
import { accounts, bankChannelOutbox, bankConnectionAudit, bankConnections } from "../db/schema";
import { newId } from "../lib/secrets";
import { buildCamt } from "../test/camt053-builder";
import { newTenant } from "../test/import-db";
import { insertApprovedBatch } from "../test/channel-scenario";
import { createConnection, getConnectionRow, patchConnection, type ConnectionOwner } from "./connections";
import { pullConnection, pushDue, pushFileName } from "./exchange";

const skip = sshdSkipReason();
if (skip) console.log(`sftp-channel tests skipped: ${skip}`);

const KEY = randomBytes(32);
const IBAN = "NO9386011117947";
const TODAY = new Date().toISOString().slice(0, 10);

function statementFile(id: string, entries: number, amount = "10.00"): string {
  return buildCamt({
    version: "08",
    messageId: `MSG-${id}`,
    createdAt: `${TODAY}T06:00:00+00:00`,
    statements: [
      {
        id: `STMT-${id}`,
        createdAt: `${TODAY}T06:00:00+00:00`,
        account: { iban: IBAN, currency: "NOK" },
        balances: [],
        entries: Array.from({ length: entries }, (_, i) => ({
          amount,
          currency: "NOK",
          direction: "credit" as const,
          booked: TODAY,
          value: TODAY,
          entryRef: `${id}-${i}`,
          additionalInfo: `Payment ${id} ${i}`,
        })),
      },
    ],
    message: "camt.054",
  });
}

/** A TCP relay to sshd that cuts both sockets once `cutAfter` bytes went from the server to the client. */
async function cuttingProxy(target: number, cutAfter: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    let down = 0;
    client.pipe(upstream);
    upstream.on("data", (d: Buffer) => {
      down += d.length;
      if (down > cutAfter) {
        client.destroy();
        upstream.destroy();
      } else client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe.skipIf(skip !== null)("SFTP bank channel against a local sshd", () => {
  let database: Database;
  let sshd: TempSshd;
  let owner: ConnectionOwner;
  let accountId: string;
  let connectionId: string;
  const outbox = () => path.join(sshd.root, "outbox");
  const inbox = () => path.join(sshd.root, "inbox");
  const sftpChannel = (fingerprint: string, port = sshd.port) => sftpChannelOf(sshd, { fingerprint, port });
  const conn = () => getConnectionRow(database.db, owner, connectionId);
  /** Points the connection back at the real sshd (its true host key), as set up in beforeAll. */
  const restoreChannel = () =>
    patchConnection(database.db, owner, connectionId, { channel: sftpChannel(sshd.hostKeyFingerprint) }, KEY, "a");
  const txCount = async () =>
    Number(
      (
        (await database.db.execute(sql`select count(*)::int as n from transactions`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    sshd = await startTempSshd();
    database = await openDatabase({ dataDir: "memory" });
    const t = await newTenant(database);
    owner = { tenantId: t.tenantId, companyId: t.companyId };
    accountId = newId();
    await database.db.insert(accounts).values({
      id: accountId,
      tenantId: t.tenantId,
      companyId: t.companyId,
      bankId: "DNBANOKK",
      externalRef: IBAN,
      name: "Operating NOK",
      currency: "NOK",
      bankName: "DNB",
    });
    const created = await createConnection(
      database.db,
      owner,
      {
        bank_name: "DNB",
        account_ids: [accountId],
        after_import: "leave",
        pull_interval_seconds: 300,
        active: true,
        channel: sftpChannel(sshd.hostKeyFingerprint),
      },
      KEY,
      "admin-client",
    );
    connectionId = created.id;
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await sshd?.stop();
  });

  it("stores the private key sealed, never shows it, and audits the credential change", async () => {
    const row = await conn();
    expect(row.secret?.startsWith("enc:v1:")).toBe(true);
    expect(row.secret).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(row.settings)).not.toContain("PRIVATE KEY");
    const audit = await database.db
      .select()
      .from(bankConnectionAudit)
      .where(eq(bankConnectionAudit.connectionId, connectionId));
    expect(audit[0]?.fields).toEqual(expect.arrayContaining(["host_key_fingerprint", "credentials", "account_ids"]));
    expect(JSON.stringify(audit)).not.toContain("PRIVATE KEY");
  });

  it("refuses a server whose host key is not the pinned one, before sending credentials", async () => {
    await patchConnection(database.db, owner, connectionId, { channel: sftpChannel(sshd.otherFingerprint) }, KEY, "a");
    writeFileSync(path.join(outbox(), "refused.xml"), statementFile("R", 1));
    const r = await pullConnection(database.db, await conn(), KEY, { timeoutMs: 15_000 });
    expect(r.error).toMatch(/host key .* not the pinned/);
    expect(r.imported).toBe(0);
    expect((await conn()).consecutiveFailures).toBe(1);
    const audits = await database.db
      .select()
      .from(bankConnectionAudit)
      .where(and(eq(bankConnectionAudit.connectionId, connectionId), eq(bankConnectionAudit.action, "updated")));
    expect(audits.at(-1)?.fields).toContain("host_key_fingerprint");
    await restoreChannel();
  }, 60_000);

  it("imports each file once: listed again or renamed it is a duplicate; a bad file is kept aside", async () => {
    const before = await txCount();
    writeFileSync(path.join(outbox(), "garbage.txt"), "this is not a bank file\n");
    writeFileSync(path.join(outbox(), ".hidden..xml"), statementFile("H", 1));
    const first = await pullConnection(database.db, await conn(), KEY);
    expect(first.error).toBeNull();
    expect(first).toMatchObject({ imported: 1, failed: 2 });
    expect(await txCount()).toBe(before + 1);
    const again = await pullConnection(database.db, await conn(), KEY);
    expect(again).toMatchObject({ imported: 0, duplicates: 1, failed: 0 });
    renameSync(path.join(outbox(), "refused.xml"), path.join(outbox(), "renamed-by-bank.xml"));
    const renamed = await pullConnection(database.db, await conn(), KEY);
    expect(renamed).toMatchObject({ imported: 0, duplicates: 1 });
    expect(await txCount()).toBe(before + 1);
    expect(existsSync(path.join(outbox(), "garbage.txt"))).toBe(true); // kept aside, not deleted
    expect((await conn()).consecutiveFailures).toBe(0);
  }, 60_000);

  it("archives a file once imported when the bank's convention asks for it", async () => {
    const archive = path.join(sshd.root, "archive");
    await patchConnection(
      database.db,
      owner,
      connectionId,
      { after_import: "archive", archive_dir: archive },
      KEY,
      "a",
    );
    writeFileSync(path.join(outbox(), "second.xml"), statementFile("S2", 2));
    const r = await pullConnection(database.db, await conn(), KEY);
    expect(r.error).toBeNull();
    expect(r.imported).toBe(1);
    expect(readdirSync(archive).sort()).toEqual(["renamed-by-bank.xml", "second.xml"]);
    expect(existsSync(path.join(outbox(), "garbage.txt"))).toBe(true);
    await patchConnection(database.db, owner, connectionId, { after_import: "leave" }, KEY, "a");
  }, 60_000);

  it("a connection dropped mid-transfer records nothing; the next pull imports the file once", async () => {
    writeFileSync(path.join(outbox(), "big.xml"), statementFile("BIG", 4000, "1.00"));
    expect(statSync(path.join(outbox(), "big.xml")).size).toBeGreaterThan(500_000);
    const proxy = await cuttingProxy(sshd.port, 200_000);
    const before = await txCount();
    try {
      await patchConnection(
        database.db,
        owner,
        connectionId,
        { channel: sftpChannel(sshd.hostKeyFingerprint, proxy.port) },
        KEY,
        "a",
      );
      const cut = await pullConnection(database.db, await conn(), KEY, { timeoutMs: 10_000 });
      expect(cut.error).not.toBeNull();
      expect(await txCount()).toBe(before);
    } finally {
      await proxy.close();
      await restoreChannel();
    }
    const r = await pullConnection(database.db, await conn(), KEY);
    expect(r.error).toBeNull();
    expect(r.imported).toBe(1);
    expect(await txCount()).toBe(before + 4000);
  }, 120_000);

  it("pushes an approved batch's pain.001 once, also after a crash between upload and mark", async () => {
    const { batchId, queued } = await insertApprovedBatch(database, {
      tenantId: owner.tenantId,
      companyId: owner.companyId,
      accountId,
      amount: "1250.50",
      creditorName: "Leverandør AS",
      endToEndId: "E2E-1",
      date: TODAY,
    });
    expect(queued).toBe(true);
    const first = await pushDue(database.db, KEY);
    expect(first.errors).toEqual([]);
    expect(first.sent).toEqual([{ batchId, fileName: pushFileName(batchId), uploaded: true }]);
    const file = path.join(inbox(), pushFileName(batchId));
    const xml = readFileSync(file, "utf8");
    expect(xml).toContain(`<MsgId>TD${batchId.replace(/-/g, "")}</MsgId>`);
    expect(xml).toContain('<InstdAmt Ccy="NOK">1250.50</InstdAmt>');
    const firstStat = statSync(file);
    // A crash after the upload and before the mark: the row is unsent again, the file is in the inbox.
    await database.db
      .update(bankChannelOutbox)
      .set({ sentAt: null, leaseUntil: null })
      .where(eq(bankChannelOutbox.batchId, batchId));
    const second = await pushDue(database.db, KEY);
    expect(second.sent).toEqual([{ batchId, fileName: pushFileName(batchId), uploaded: false }]);
    expect(statSync(file).mtimeMs).toBe(firstStat.mtimeMs);
    expect(readdirSync(inbox()).filter((n) => n.includes(batchId.replace(/-/g, "")))).toHaveLength(1);
    expect((await pushDue(database.db, KEY)).sent).toEqual([]);
    const [c] = await database.db.select().from(bankConnections).where(eq(bankConnections.id, connectionId));
    expect(c?.lastPushOkAt).not.toBeNull();
  }, 60_000);
});
